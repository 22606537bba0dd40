// `pesim validate FILE`: reads a circuit file and checks it without simulating.
// The engine and the readers are imported when the command runs (see main.ts).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { examples } from './help.js';

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check a circuit file (.ipes, SPICE or JSON netlist) without simulating it')
    .argument('<file>', 'circuit file')
    .addHelpText('after', examples(
      ['pesim validate buck.ipes', 'read a GeckoCIRCUITS file and check the circuit (exit code 1 with the element at fault)'],
      ['pesim validate bench/peers/buck.cir', 'the same for a SPICE deck'],
    ))
    .action(async (file: string) => {
      const [{ validateNetlist, checkJsonParameterNames }, { readCircuitFile }, { companionFiles }, { deckFiles }] = await Promise.all([
        import('../engine/index.js'), import('../formats/read.js'), import('../formats/companion.js'), import('../formats/deck-files.js'),
      ]);
      const read = await readCircuitFile(await readFile(file), file, { companion: companionFiles(file), files: deckFiles(file) });
      checkJsonParameterNames(read);
      const warnings = [...read.warnings, ...validateNetlist(read.netlist)];
      for (const warning of warnings) console.error(`warning: ${warning}`);
      console.log(`${file}: valid ${read.format} circuit, ${read.netlist.elements.length} elements, ${read.netlist.blocks?.length ?? 0} control blocks`);
    });
}
