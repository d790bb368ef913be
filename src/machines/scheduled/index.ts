// The scheduled feature's public face for views and peers: protocols and pure rules, never machine files.
export * from './scheduler/scheduler.protocol';
export * from './scheduler/times';
