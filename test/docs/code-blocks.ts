// The code blocks of README.md and docs/*.md that the doc tests run: extraction, the markers that
// keep a block from running or state what its output must contain, and the substitutions that
// point a block at the services the test started.
//
// A fenced block runs when its language is one of RUNNABLE (sh, bash, python, js, ts, pss).
// It does not run when its info string says `no-run` and why (```sh no-run: reason) or when an HTML comment
// `<!-- not-run: reason -->` stands on the lines right before it; a reason is required.
// `<!-- output: REGEX -->` right before a block makes the test check its standard output.
// Substitutions: `127.0.0.1:8080` (simulation service), `127.0.0.1:1099` (its XML-RPC port) and
// `127.0.0.1:8000` (job-queue service) become the ports of the services the test started on
// loopback; `npx pesim` runs the checkout's bin/pesim.js (as `pesim` does).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const RUNNABLE = ['sh', 'bash', 'python', 'js', 'ts', 'pss'] as const;
export type RunnableLanguage = (typeof RUNNABLE)[number];

export interface CodeBlock {
  /** `README.md` or `docs/cli.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  code: string;
  /** Why the block does not run (`no-run` in the info string or a not-run comment); undefined: it runs. */
  notRun?: string;
  /** What the block's standard output must match. */
  output?: RegExp;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/;
const MARKER = /^<!--\s*(not-run|output):\s*(.*?)\s*-->$/;

/** The fenced code blocks of one Markdown text, with the markers written right before each. */
export function extractBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, language, info] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    const code = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join('\n');
    const block: CodeBlock = { file, line: i + 1, language: language.toLowerCase(), code };
    if (/\bno-run\b/.test(info)) block.notRun = info.replace(/\bno-run\b:?/, '').trim();
    for (let k = i - 1; k >= 0; k--) {
      const marker = MARKER.exec(lines[k].trim());
      if (!marker) break;
      if (marker[1] === 'not-run') block.notRun = marker[2];
      else block.output = new RegExp(marker[2].replace(/^\/(.*)\/$/, '$1'));
    }
    blocks.push(block);
    i = end;
  }
  return blocks;
}

/** README.md and every docs/*.md of the repository at `root`. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every code block of the documentation, in file order. */
export function documentationBlocks(root: string): CodeBlock[] {
  return documentationFiles(root).flatMap((file) => extractBlocks(file, readFileSync(join(root, file), 'utf8')));
}

export function isRunnable(block: CodeBlock): block is CodeBlock & { language: RunnableLanguage } {
  return (RUNNABLE as readonly string[]).includes(block.language);
}

export interface ServicePorts {
  http: number;
  rmi: number;
  jobq?: number;
}

/** Which services a block talks to, by the addresses it names. */
export function servicesNeeded(code: string): { serve: boolean; jobq: boolean } {
  return { serve: /127\.0\.0\.1:(8080|1099)\b/.test(code), jobq: /127\.0\.0\.1:8000\b/.test(code) };
}

/** The block's code pointed at the test's services and the checkout's command line. */
export function substitute(code: string, ports: ServicePorts): string {
  let out = code
    .replace(/127\.0\.0\.1:8080\b/g, `127.0.0.1:${ports.http}`)
    .replace(/127\.0\.0\.1:1099\b/g, `127.0.0.1:${ports.rmi}`)
    .replace(/\bnpx pesim\b/g, 'pesim');
  if (ports.jobq !== undefined) out = out.replace(/127\.0\.0\.1:8000\b/g, `127.0.0.1:${ports.jobq}`);
  return out;
}
