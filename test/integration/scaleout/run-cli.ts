// Runs the `pesim` command from the sources (through tsx), for the scale-out tests' worker
// processes: a file rather than `-e`, since worker threads inherit the process's exec arguments.
import { main } from '../../../src/cli/main.js';

process.exitCode = await main(['node', 'pesim', ...process.argv.slice(2)]);
