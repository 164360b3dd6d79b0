/** `luxon` in the engine projects: the engine's n8n install's, as n8n gives it to a community package (test/support/engine/n8nModule.cts). */
import { engineN8nModule } from './n8nModule.cjs';

module.exports = engineN8nModule('luxon');
