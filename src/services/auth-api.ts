// The calls the session actor makes. They carry no bearer token and are never refreshed.
import type { BodyOf, ResponseOf } from '../contract/api';
import { type ApiClient, createApiClient } from './api';

let bare: ApiClient | null = null;
const client = () => {
  bare ??= createApiClient();
  return bare;
};

export const authApi = {
  login: (body: BodyOf<'login'>): Promise<ResponseOf<'login'>> => client().call('login', { body }),
  register: (body: BodyOf<'register'>): Promise<ResponseOf<'register'>> => client().call('register', { body }),
  refresh: (refreshToken: string): Promise<ResponseOf<'refresh'>> => client().call('refresh', { body: { refreshToken } }),
  logout: (refreshToken: string): Promise<ResponseOf<'logout'>> => client().call('logout', { body: { refreshToken } }),
  health: (): Promise<ResponseOf<'health'>> => client().call('health'),
};
