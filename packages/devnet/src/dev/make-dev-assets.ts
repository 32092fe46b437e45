import { contractArtifacts } from '../evm/contracts.js';
import { makeStoreTemplates } from './store-templates.js';

// Run by the package's build (`node dist/dev/make-dev-assets.js`): what a first `weft dev` would
// otherwise make before its table. The store templates (`store-templates.ts`), and the devnet's
// Solidity compiled into its cache (`evm/contracts.ts`): each made only when missing or stale.
if (await makeStoreTemplates()) process.stdout.write('weft-devnet: made the dev stack’s store templates\n');
contractArtifacts();
