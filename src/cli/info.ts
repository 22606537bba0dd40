// `pesim info FILE`: lists what a circuit file names (components and their parameters, global
// parameters, scopes, channels and measurement names), as text or --json. Nothing is simulated.
// The readers are imported when the command runs (see main.ts).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { examples } from './help.js';

export function registerInfo(program: Command): void {
  program
    .command('info')
    .description('list the components, parameters, scopes, channels and measurement names of a circuit file')
    .argument('<file>', 'circuit file (.ipes, SPICE or JSON netlist)')
    .option('--json', 'print {file, format, name, settings, components, globalParameters, scopes} as JSON')
    .addHelpText('after', examples(
      ['pesim info buck.ipes', 'components with parameters (and GeckoCIRCUITS short names), scopes with channel names and measurements'],
      ['pesim info buck.ipes --json', 'the same as JSON, for programs'],
    ))
    .action(async (file: string, o: { json?: boolean }) => {
      const [{ readCircuitFile }, { companionFiles }, { deckFiles }, { circuitInfo, circuitInfoText }] = await Promise.all([
        import('../formats/read.js'), import('../formats/companion.js'), import('../formats/deck-files.js'), import('./circuit-info.js'),
      ]);
      const read = await readCircuitFile(await readFile(file), file, { companion: companionFiles(file), files: deckFiles(file) });
      for (const warning of read.warnings) console.error(`warning: ${warning}`);
      const info = circuitInfo(file, read.format, read.netlist);
      console.log(o.json ? JSON.stringify(info, null, 2) : circuitInfoText(info));
    });
}
