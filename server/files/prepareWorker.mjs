// The entry of the conversion worker thread (convert.ts): plain JavaScript so Node can start it
// under any runner, then the typed worker through tsx.
import { tsImport } from 'tsx/esm/api';

await tsImport('./prepareWorker.ts', import.meta.url);
