/** `n8n-workflow` in the engine projects: the engine's n8n install's (test/support/engine/n8nModule.cts). */
import { engineN8nModule } from './n8nModule.cjs';

module.exports = engineN8nModule('n8n-workflow');
