// Data files uploaded with a circuit (multipart parts `files` of POST /api/v1/circuits/parse): the
// files a GeckoCIRCUITS model names beside itself (imported signal tables, loss files) and the files
// a SPICE deck includes (`.include`, `.lib`, PWL files). The readers ask for them by name; the
// names they asked for and did not get are kept, so that a refusal (or a warning) can say which
// files to upload.
import { basename } from 'node:path';
import type { ReadOptions } from '../formats/read.js';

/** The part of a multipart field the service sends with every refusal about data files. */
export const DATA_FILES_FIELD = 'files';

export class UploadedDataFiles {
  private readonly byName = new Map<string, Uint8Array>();
  /** Names the readers asked for that were not uploaded, in order, once each. */
  readonly missing: string[] = [];

  /** `files`: file name → bytes; only the last part of a name counts (`data/uCM.txt` → `uCM.txt`). */
  constructor(files: ReadonlyMap<string, Uint8Array> = new Map()) {
    for (const [name, bytes] of files) this.byName.set(basename(name), bytes);
  }

  get size(): number {
    return this.byName.size;
  }

  private find(name: string): Uint8Array | undefined {
    const wanted = basename(name.replaceAll('\\', '/'));
    const bytes = this.byName.get(wanted);
    if (!bytes && wanted && !this.missing.includes(wanted)) this.missing.push(wanted);
    return bytes;
  }

  /** The readers' options: the .ipes reader's files beside the model, the SPICE reader's includes. */
  readOptions(): ReadOptions {
    return { companion: (name) => this.find(name), files: (path) => this.find(path) };
  }

  /** What to do about the files asked for and not uploaded ('' when none was missing). */
  missingAdvice(): string {
    if (this.missing.length === 0) return '';
    const names = this.missing.map((n) => `'${n}'`).join(', ');
    return `the circuit names the data file${this.missing.length > 1 ? 's' : ''} ${names}: upload ${this.missing.length > 1 ? 'them' : 'it'} with the circuit, one multipart part "${DATA_FILES_FIELD}" per file (POST /api/v1/circuits/parse; docs/http-api.md)`;
  }
}
