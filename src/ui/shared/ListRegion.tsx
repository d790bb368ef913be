// The body of a list pane (the chats list, the contacts page, the contacts dialog's requests and friends): the rows
// in a <ul>, or, while there are none, what stands in their place (a placeholder while the first fetch is under
// way, a note once it is known to be empty); something shown instead of the rows altogether (search results)
// takes their place while it is there. Each row is the caller's own <li>.
import { Fragment, type ReactNode } from 'react';

export interface ListRegionProps<T> {
  items: readonly T[];
  itemKey(item: T): string;
  /** One row: an <li>. */
  renderItem(item: T): ReactNode;
  /** The <ul>'s class. */
  className: string;
  /** The <ul>'s accessible name. */
  label?: string;
  /** The list has been fetched at least once (default: yes). */
  loaded?: boolean;
  /** In place of the rows before the first fetch answered (default: `empty`). */
  loading?: ReactNode;
  /** In place of the rows when there are none. */
  empty: ReactNode;
  /** Shown instead of the rows while present (search results over the list). */
  replacement?: ReactNode;
}

export function ListRegion<T>(props: ListRegionProps<T>) {
  if (props.replacement) return <>{props.replacement}</>;
  if (props.items.length === 0)
    return <>{props.loaded === false && props.loading !== undefined ? props.loading : props.empty}</>;
  return (
    <ul className={props.className} aria-label={props.label}>
      {props.items.map((item) => (
        <Fragment key={props.itemKey(item)}>{props.renderItem(item)}</Fragment>
      ))}
    </ul>
  );
}
