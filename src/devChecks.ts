import { catalogue } from '../domain/catalogue';
import { assertCatalogue } from '../domain/catalogue/check';
import { dataModelKeys } from '../domain/catalogue/dataModel';

/** The catalogue's configuration check: it only ever throws in development, so production never loads it. */
export function checkCatalogue(): void {
  assertCatalogue(catalogue, dataModelKeys, true);
}
