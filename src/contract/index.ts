export * from './api';
export * from './entities';
export * from './events';
export * from './limits';
export * from './event-names';
export * from './routes';
export * from './shape';
export * from './failure';
