// The sentence a page opened over plain http shows instead of a browser error (docs/behaviour.md §10.23 Only at a
// secure address (a page over plain http)): calls, voice messages and notifications need https; the server's https
// address, when it knows one, is a link; else the user is asked to have the administrator set HTTPS up.
import {
  INSECURE_LEAD,
  INSECURE_NO_ADDRESS,
  type InsecurePage,
  type InsecureTopic,
} from '../../machines/shared/secure-context.protocol';

export function InsecureText({ topic, page }: { topic: InsecureTopic; page: InsecurePage }) {
  if (!page.secureUrl)
    return (
      <span data-testid="insecure-notice">
        {INSECURE_LEAD[topic]} {INSECURE_NO_ADDRESS}
      </span>
    );
  return (
    <span data-testid="insecure-notice">
      {INSECURE_LEAD[topic]} (<a href={page.secureUrl}>{page.secureUrl}</a>)
    </span>
  );
}
