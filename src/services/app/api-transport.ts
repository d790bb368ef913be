// What the API client (api.ts) loads with its first request that is not an early answer: ofetch and the route table.
import { type $Fetch, ofetch } from 'ofetch';

export { routes } from '../../contract/routes';

export const createFetch = (baseURL: string): $Fetch =>
  ofetch.create({
    baseURL,
    credentials: 'include',
    retry: 0, // ofetch retries GETs by default; the only repeat allowed is the one after a refresh
  });
