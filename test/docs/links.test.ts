// The links of README.md and docs/*.md lead somewhere: every relative link names a file of the
// repository, and every #anchor a heading of the page it points to (GitHub's heading slugs).
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentationFiles } from './code-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^(`{3,}|~{3,})[\s\S]*?^\1/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1])));
}

function links(markdown: string): string[] {
  const withoutCode = markdown.replace(/^(`{3,}|~{3,})[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
}

describe('documentation links', () => {
  for (const file of documentationFiles(root)) {
    it(`${file}: relative links and anchors exist`, () => {
      const text = readFileSync(join(root, file), 'utf8');
      for (const link of links(text)) {
        const [path, anchor] = link.split('#');
        const target = path === '' ? join(root, file) : normalize(join(root, dirname(file), path));
        expect(existsSync(target), `${file}: ${link}: no file ${target}`).to.equal(true);
        if (anchor && target.endsWith('.md')) {
          expect([...anchors(readFileSync(target, 'utf8'))], `${file}: ${link}: no heading #${anchor}`).to.include(anchor);
        }
      }
    });
  }
});
