// Model files of the job-queue service: `model_file` is resolved under the models root (relative
// paths only; `..` or an absolute path leaving the root is INVALID_MODEL_PATH, a missing file
// MODEL_NOT_FOUND) and read through src/formats (.ipes, SPICE, JSON netlist, detected from the
// content). Parsed models are kept in a small cache keyed by path, size and modification time, so a
// burst of submissions of one model parses it once.
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Netlist } from '../formats/netlist.js';
import { readCircuitFile } from '../formats/read.js';
import { checkJsonParameterNames } from '../engine/index.js';
import { companionFiles } from '../formats/companion.js';
import { deckFiles } from '../formats/deck-files.js';
import { circuitProblemOf } from '../jobs/circuit-check.js';
import { circuitRejection } from './prepare.js';
import { JobqError } from './errors.js';

export interface LoadedModel {
  /** The path as the client gave it (the task's model_file). */
  modelFile: string;
  netlist: Netlist;
  /** Hex SHA-256 of the file's bytes (the cache hashes it when cache.include_files). */
  digest: string;
}

const MAX_CACHED = 64;

function invalidPath(modelFile: string, reason: string): JobqError {
  return new JobqError(400, 'INVALID_MODEL_PATH', `model_file ${JSON.stringify(modelFile)} ${reason}`, {
    field: 'model_file',
    suggestion: 'Give a path relative to the models directory (JOBQ_MODELS_DIR), without ..',
  });
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

export class ModelFiles {
  private readonly parsed = new Map<string, { stamp: string; model: Omit<LoadedModel, 'modelFile'> }>();
  private rootReal: string | undefined;

  constructor(readonly root: string) {}

  /** The absolute path of `modelFile` inside the root, or INVALID_MODEL_PATH. */
  resolvePath(modelFile: string): string {
    if (modelFile.trim() === '') throw invalidPath(modelFile, 'is empty');
    if (modelFile.includes('\0')) throw invalidPath(modelFile, 'contains a NUL character');
    const path = resolve(this.root, modelFile);
    if (!within(this.root, path)) throw invalidPath(modelFile, 'leaves the models directory');
    return path;
  }

  async load(modelFile: string): Promise<LoadedModel> {
    const path = this.resolvePath(modelFile);
    let real: string;
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      real = await realpath(path);
      info = await stat(real);
    } catch {
      throw new JobqError(404, 'MODEL_NOT_FOUND', `Model file ${modelFile} not found in the models directory`, {
        field: 'model_file',
        suggestion: 'Check the path; it is relative to the models directory (JOBQ_MODELS_DIR)',
      });
    }
    // A symbolic link inside the root must not lead out of it either.
    this.rootReal ??= await realpath(this.root);
    if (!within(this.rootReal, real)) throw invalidPath(modelFile, 'leads out of the models directory');
    if (!info.isFile()) throw invalidPath(modelFile, 'is not a regular file');
    const stamp = `${info.size}:${info.mtimeMs}`;
    const cached = this.parsed.get(real);
    if (cached && cached.stamp === stamp) {
      this.parsed.delete(real); // re-insert: most recently used last
      this.parsed.set(real, cached);
      return { modelFile, ...cached.model };
    }
    const bytes = await readFile(real);
    let netlist: Netlist;
    try {
      const read = await readCircuitFile(bytes, real, { companion: companionFiles(real), files: deckFiles(real, { root: this.rootReal }) });
      checkJsonParameterNames(read);
      netlist = read.netlist;
    } catch (error) {
      const problem = circuitProblemOf(error);
      throw problem ? circuitRejection(problem, modelFile) : error;
    }
    const model = { netlist, digest: createHash('sha256').update(bytes).digest('hex') };
    this.parsed.set(real, { stamp, model });
    if (this.parsed.size > MAX_CACHED) this.parsed.delete(this.parsed.keys().next().value as string);
    return { modelFile, ...model };
  }
}
