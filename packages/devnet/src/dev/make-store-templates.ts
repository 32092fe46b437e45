import { makeStoreTemplates } from './store-templates.js';

// Run by the package's build: `node dist/dev/make-store-templates.js` (see `store-templates.ts`).
if (await makeStoreTemplates()) process.stdout.write('weft-devnet: made the dev stack’s store templates\n');
