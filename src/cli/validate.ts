// `pesim validate FILE`: reads a circuit file and checks it without simulating.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { validateNetlist } from '../engine/index.js';
import { readCircuitFile } from '../formats/read.js';
import { companionFiles } from '../formats/companion.js';
import { deckFiles } from '../formats/deck-files.js';

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check a circuit file (.ipes, SPICE or JSON netlist) without simulating it')
    .argument('<file>', 'circuit file')
    .action(async (file: string) => {
      const read = await readCircuitFile(await readFile(file), file, { companion: companionFiles(file), files: deckFiles(file) });
      const warnings = [...read.warnings, ...validateNetlist(read.netlist)];
      for (const warning of warnings) console.error(`warning: ${warning}`);
      console.log(`${file}: valid ${read.format} circuit, ${read.netlist.elements.length} elements, ${read.netlist.blocks?.length ?? 0} control blocks`);
    });
}
