// A message's text with its formatting (docs/behaviour.md §10.42 Formatting): the ranges become React elements
// around parts of the text, and React renders every part as text, so nothing in a message is ever read as HTML.
// Plain parts keep their links (./linkify) and mentions; code keeps neither. Loaded with the first formatted message
// (MessageText), so the chats page's first screen does not carry it.
import { type JSX, type MouseEvent, type ReactNode, useContext, useState } from 'react';
import type { TextEntity } from '../../contract/entities';
import { CopyTextContext } from './copy-text';
import { linkSegments } from './linkify';
import { LINK_REL, withMentions } from './text-parts';
import './formatted-text.css';

type Mentions = { name: string; me: boolean }[] | undefined;

/** Where a text link may lead: http(s) with a host, or mailto (the server allows no other); else nowhere. */
export function linkHref(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.protocol === 'mailto:') return u.href;
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? u.href : null;
  } catch {
    return null;
  }
}

interface Node {
  e: TextEntity;
  /** The ranges inside it. */
  nested: Node[];
}

/** The ranges as a tree, outer first; any range that crosses another or leaves the text is dropped. */
export function entityTree(text: string, entities: readonly TextEntity[]): Node[] {
  const sorted = entities
    .filter((e) => e.length > 0 && e.offset >= 0 && e.offset + e.length <= text.length)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  const roots: Node[] = [];
  const open: Node[] = [];
  for (const e of sorted) {
    while (open.length) {
      const top = (open.at(-1) as Node).e;
      if (top.offset + top.length <= e.offset) open.pop();
      else break;
    }
    const parent = open.at(-1);
    if (parent && e.offset + e.length > parent.e.offset + parent.e.length) continue;
    const node: Node = { e, nested: [] };
    (parent ? parent.nested : roots).push(node);
    open.push(node);
  }
  return roots;
}

/** A plain part: its links and mentions (none inside a link: a link holds no other link). */
function plain(text: string, mentions: Mentions, key: string, inLink: boolean): ReactNode {
  if (inLink || !/[.:]/.test(text)) return withMentions(text, mentions, key);
  return linkSegments(text).map((s, i) =>
    s.kind === 'link' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: segments of one text never move
      <a key={`${key}-${i}`} href={s.href} target="_blank" rel={LINK_REL} className="msg-link">
        {s.text}
      </a>
    ) : (
      withMentions(s.text, mentions, `${key}-${i}`)
    ),
  );
}

/** A code block: monospace, scrolled sideways, its language above it and «Копировать» (the pane's copy). */
function CodeBlock({ code, language }: { code: string; language?: string }) {
  const copyText = useContext(CopyTextContext);
  const copy = (e: MouseEvent) => {
    e.stopPropagation();
    copyText?.(code);
  };
  return (
    <div className="msg-pre">
      <div className="msg-pre-head">
        <span className="msg-pre-language">{language ?? ''}</span>
        {copyText && (
          <button type="button" className="msg-pre-copy" onClick={copy}>
            Копировать
          </button>
        )}
      </div>
      <pre>
        <code>{code}</code>
      </pre>
    </div>
  );
}

/** Hidden until clicked (or Enter/Space): before that the text is not in the page at all, only dots. */
function Spoiler({ hidden, children }: { hidden: string; children: ReactNode }) {
  const [shown, setShown] = useState(false);
  if (shown) return <span className="msg-spoiler shown">{children}</span>;
  return (
    <button
      type="button"
      className="msg-spoiler"
      aria-label="Скрытый текст, показать"
      onClick={(e) => {
        // The bubble's own click (its menu) is not this one.
        e.stopPropagation();
        setShown(true);
      }}
    >
      {'•'.repeat(Math.min(Array.from(hidden).length, 40))}
    </button>
  );
}

function render(
  text: string,
  from: number,
  to: number,
  nodes: Node[],
  mentions: Mentions,
  inLink: boolean,
  key: string,
): ReactNode[] {
  const out: ReactNode[] = [];
  let at = from;
  nodes.forEach((n, i) => {
    const { e } = n;
    const end = e.offset + e.length;
    if (e.offset > at) out.push(plain(text.slice(at, e.offset), mentions, `${key}.${i}p`, inLink));
    const k = `${key}.${i}`;
    const inner = (link = inLink) => render(text, e.offset, end, n.nested, mentions, link, k);
    const part = text.slice(e.offset, end);
    let el: JSX.Element | ReactNode[];
    switch (e.type) {
      case 'bold':
        el = <strong key={k}>{inner()}</strong>;
        break;
      case 'italic':
        el = <em key={k}>{inner()}</em>;
        break;
      case 'underline':
        el = <u key={k}>{inner()}</u>;
        break;
      case 'strikethrough':
        el = <s key={k}>{inner()}</s>;
        break;
      case 'code':
        el = (
          <code key={k} className="msg-code">
            {part}
          </code>
        );
        break;
      case 'pre':
        el = <CodeBlock key={k} code={part} language={e.language} />;
        break;
      case 'spoiler':
        el = (
          <Spoiler key={k} hidden={part}>
            {inner()}
          </Spoiler>
        );
        break;
      case 'blockquote':
        el = (
          <blockquote key={k} className="msg-quote">
            {inner()}
          </blockquote>
        );
        break;
      case 'text_link': {
        const href = linkHref(e.url);
        el = href ? (
          <a key={k} href={href} target="_blank" rel={LINK_REL} className="msg-link">
            {inner(true)}
          </a>
        ) : (
          inner()
        );
        break;
      }
      default:
        // A type newer than this client: its text, plain.
        el = inner();
    }
    out.push(el);
    at = end;
  });
  if (at < to) out.push(plain(text.slice(at, to), mentions, `${key}.e`, inLink));
  return out;
}

/** A div, not a paragraph: a code block or a quote may be inside. */
export function FormattedText({
  text,
  entities,
  mentions,
}: {
  text: string;
  entities: readonly TextEntity[];
  mentions?: { name: string; me: boolean }[];
}) {
  return (
    <div className="msg-text msg-formatted">
      {render(text, 0, text.length, entityTree(text, entities), mentions, false, 'f')}
    </div>
  );
}
