/**
 * A rehype plugin for the guides rendered under /docs (pages/docs/[doc].astro): a link to another guide
 * (`operations.md#x`) becomes its page (`/docs/operations#x`), and a link to a file outside docs/ (which the
 * site does not serve) keeps its words without the link, so no rendered guide links a raw .md file. Each
 * table goes in a focusable box that scrolls sideways on a narrow screen (the site's ScrollBox).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

interface HastNode {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

const GUIDE = /^(?:\.\/)?([\w-]+)\.md(#.*)?$/;

export function docsLinks(docsDir: string) {
  let tables = 0;
  const rewrite = (node: HastNode): HastNode[] => {
    if (node.children) node.children = node.children.flatMap(rewrite);
    if (node.tagName === 'table')
      return [
        {
          type: 'element',
          tagName: 'div',
          properties: { className: ['scroll-box'], tabIndex: 0, role: 'region', ariaLabel: `Table ${++tables}` },
          children: [node],
        },
      ];
    const href = node.tagName === 'a' ? node.properties?.href : undefined;
    if (typeof href !== 'string' || /^[a-z]+:|^#|^\//i.test(href) || !/\.md(#|$)/.test(href)) return [node];
    const guide = GUIDE.exec(href);
    if (guide && existsSync(join(docsDir, `${guide[1]}.md`))) {
      node.properties!.href = `/docs/${guide[1]}${guide[2] ?? ''}`;
      return [node];
    }
    return node.children ?? [];
  };
  return () => (tree: HastNode) => {
    tables = 0;
    rewrite(tree);
  };
}
