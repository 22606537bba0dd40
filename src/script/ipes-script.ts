// The GeckoSCRIPT stored in an .ipes file: the `<scripterImports>`, `<scripterDeclarations>` and
// `<scripterCode>` sections, each as script text that keeps its line numbers in the (decompressed)
// file, so that errors point at the file's own lines.
import { decodeIpes } from '../formats/ipes/container.js';
import type { SourceText } from './errors.js';

export interface EmbeddedScript {
  imports: SourceText;
  declarations: SourceText;
  code: SourceText;
}

function section(lines: string[], tag: string, name: string): SourceText {
  const start = lines.findIndex((line) => line.trim() === `<${tag}>`);
  if (start < 0) return { name, text: '', firstLine: 1 };
  let end = start + 1;
  while (end < lines.length && !lines[end].startsWith(`<\\${tag}>`)) end++;
  return { name, text: lines.slice(start + 1, end).join('\n'), firstLine: start + 2 };
}

/** The script sections of .ipes bytes (gzip, zlib or plain text); empty texts when absent. */
export function embeddedScript(bytes: Uint8Array, fileName: string): EmbeddedScript {
  const lines = decodeIpes(bytes, fileName).text.split('\n');
  return {
    imports: section(lines, 'scripterImports', fileName),
    declarations: section(lines, 'scripterDeclarations', fileName),
    code: section(lines, 'scripterCode', fileName),
  };
}
