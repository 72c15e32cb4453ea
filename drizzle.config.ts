import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new SQL migration from server/infra/schema.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/infra/schema.ts',
  out: './server/infra/migrations',
});
