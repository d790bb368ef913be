// A user's conversation list as the JSON of each entry, so a change in one conversation costs that entry's
// rebuild and a join, not the whole list's (list-cache.ts keeps the parts; conversations.routes.ts patches them).
import type { ConversationEntry } from '../../src/contract/entities';
import type { SerializedJson } from '../http/contract-route';
import { byActivity, type ListedEntry } from './conversation-view';

/** One entry of the list: its JSON (as the route's schema writes it) and what orders it. */
export interface ListPart {
  id: string;
  activity: string;
  json: Buffer;
}

const PREFIX = Buffer.from('{"conversations":[');
const SUFFIX = Buffer.from(']}');
const COMMA = Buffer.from(',');

type Serialize = (value: { conversations: ConversationEntry[] }) => SerializedJson;

/** The entry's JSON, cut out of the route's own answer for a list of one, so it is exactly what a whole list holds. */
export function listPart(serialize: Serialize, listed: ListedEntry): ListPart {
  const whole = serialize({ conversations: [listed.entry] }).json;
  const shaped =
    whole.length > PREFIX.length + SUFFIX.length &&
    whole.subarray(0, PREFIX.length).equals(PREFIX) &&
    whole.subarray(whole.length - SUFFIX.length).equals(SUFFIX);
  if (!shaped) throw new Error('the conversation list is no longer {"conversations":[…]}');
  return {
    id: listed.entry.conversation.id,
    activity: listed.activity,
    json: whole.subarray(PREFIX.length, whole.length - SUFFIX.length),
  };
}

/** The answer the parts make, in their order. */
export function joinParts(parts: readonly ListPart[]): Buffer {
  const pieces: Buffer[] = [PREFIX];
  parts.forEach((p, i) => {
    if (i > 0) pieces.push(COMMA);
    pieces.push(p.json);
  });
  pieces.push(SUFFIX);
  return Buffer.concat(pieces);
}

/** The parts with the stale conversations replaced by what they are now (absent: the user is no longer in one), in list order. */
export function patchParts(
  parts: readonly ListPart[],
  stale: ReadonlySet<string>,
  fresh: readonly ListPart[],
): ListPart[] {
  return [...parts.filter((p) => !stale.has(p.id)), ...fresh].sort(byActivity);
}
