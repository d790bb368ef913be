// The chips under the list's search field: «От», «В чате», «Тип», «Дата», each opening a small picker; a chip
// that is set shows its value and ✕. `от:имя` / `в:чат` typed in the field set the same filters. A chunk of its
// own, loaded with the results. Renders from props.
import { useEffect, useMemo, useState } from 'react';
import type { ConversationEntry } from '../../contract/entities';
import type { SearchKind } from '../../contract/local-day';
import type { SearchFilters as Filters } from '../../machines/search/search/search.protocol';
import { filterChoices, KIND_LABELS, matching, typedFilters } from './search-filter-choices';
import './search.css';

export interface SearchFiltersProps {
  filters: Filters;
  query: string;
  entries: ConversationEntry[];
  me: string | null;
  onFilter(filters: Partial<Filters>): void;
  onInput(text: string): void;
}

type Chip = 'from' | 'chat' | 'kind' | 'date';

const dayText = (day: string) => day.split('-').reverse().join('.');

function dateLabel(f: Filters): string | null {
  if (f.since && f.until) return f.since === f.until ? dayText(f.since) : `${dayText(f.since)} – ${dayText(f.until)}`;
  if (f.since) return `с ${dayText(f.since)}`;
  if (f.until) return `по ${dayText(f.until)}`;
  return null;
}

export function SearchFilters(props: SearchFiltersProps) {
  const { filters, query, onFilter, onInput } = props;
  const [open, setOpen] = useState<Chip | null>(null);
  const choices = useMemo(() => filterChoices(props.entries, props.me), [props.entries, props.me]);
  // `от:имя ` / `в:чат ` typed: the chip is set and the words stay in the field.
  useEffect(() => {
    const typed = typedFilters(query, choices);
    if (!typed) return;
    // The words first: the filter then searches them at once, without the tokens.
    onInput(typed.text);
    onFilter(typed.filters);
  }, [query, choices, onFilter, onInput]);

  const set = (f: Partial<Filters>) => {
    onFilter(f);
    setOpen(null);
  };
  const chips: { id: Chip; label: string; value: string | null; clear: Partial<Filters> }[] = [
    { id: 'from', label: 'От', value: filters.from?.name ?? null, clear: { from: null } },
    { id: 'chat', label: 'В чате', value: filters.chat?.title ?? null, clear: { chat: null } },
    { id: 'kind', label: 'Тип', value: filters.kind ? KIND_LABELS[filters.kind] : null, clear: { kind: null } },
    { id: 'date', label: 'Дата', value: dateLabel(filters), clear: { since: null, until: null } },
  ];
  return (
    <div className="search-filters" data-testid="search-filters">
      <div className="search-chips">
        {chips.map((c) => (
          <span key={c.id} className={c.value ? 'search-chip is-set' : 'search-chip'}>
            <button
              type="button"
              aria-expanded={open === c.id}
              data-testid={`search-chip-${c.id}`}
              onClick={() => setOpen(open === c.id ? null : c.id)}
            >
              {c.value ? `${c.label}: ${c.value}` : c.label}
            </button>
            {c.value && (
              <button type="button" aria-label={`Убрать фильтр «${c.label}»`} onClick={() => set(c.clear)}>
                ✕
              </button>
            )}
          </span>
        ))}
      </div>
      {open === 'from' && (
        <NamePicker label="Чьи сообщения" list={choices.people} name={(p) => p.name} onPick={(p) => set({ from: p })} />
      )}
      {open === 'chat' && (
        <NamePicker label="В каком чате" list={choices.chats} name={(c) => c.title} onPick={(c) => set({ chat: c })} />
      )}
      {open === 'kind' && (
        <fieldset className="search-picker" aria-label="Тип сообщений">
          {(Object.keys(KIND_LABELS) as SearchKind[]).map((k) => (
            <button key={k} type="button" className="button" onClick={() => set({ kind: k })}>
              {KIND_LABELS[k]}
            </button>
          ))}
        </fieldset>
      )}
      {open === 'date' && <DatePicker filters={filters} onPick={set} />}
    </div>
  );
}

function NamePicker<T extends { id: string }>(props: {
  label: string;
  list: T[];
  name(t: T): string;
  onPick(t: T): void;
}) {
  const [text, setText] = useState('');
  const shown = matching(props.list, props.name, text).slice(0, 8);
  return (
    <fieldset className="search-picker" aria-label={props.label}>
      <input
        className="input"
        placeholder="Имя"
        aria-label={props.label}
        value={text}
        // biome-ignore lint/a11y/noAutofocus: the picker was opened on purpose
        autoFocus
        onChange={(e) => setText(e.target.value)}
      />
      {shown.length === 0 && <div className="search-status">Никого не нашлось</div>}
      {shown.map((t) => (
        <button key={t.id} type="button" className="search-picker-row" onClick={() => props.onPick(t)}>
          {props.name(t)}
        </button>
      ))}
    </fieldset>
  );
}

function DatePicker(props: { filters: Filters; onPick(f: Partial<Filters>): void }) {
  const [since, setSince] = useState(props.filters.since ?? '');
  const [until, setUntil] = useState(props.filters.until ?? '');
  const reversed = since !== '' && until !== '' && until < since;
  return (
    <form
      className="search-picker"
      aria-label="Дата"
      onSubmit={(e) => {
        e.preventDefault();
        if (!reversed) props.onPick({ since: since || null, until: until || null });
      }}
    >
      <label>
        с <input type="date" className="input" value={since} onChange={(e) => setSince(e.target.value)} />
      </label>
      <label>
        по <input type="date" className="input" value={until} onChange={(e) => setUntil(e.target.value)} />
      </label>
      {reversed && <div className="search-status">Дата «по» раньше даты «с»</div>}
      <button type="submit" className="button" disabled={reversed}>
        Применить
      </button>
    </form>
  );
}
