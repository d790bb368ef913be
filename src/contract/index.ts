export * from './api';
export * from './entities';
export * from './events';
export * from './limits';
