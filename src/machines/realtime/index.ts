// The public face of the realtime feature (the socket and the link to the server): other features import only this
// module and its *.protocol.ts files. Machines hear the server with listenToServer, ask it with serverRequest, and
// queue asks that must survive a lost connection with the requestQueue machine.

export { connectivityMachine } from './connectivity/connectivity.machine';
export { listenToServer, type ServerEventMappers } from './realtime/listen-to-server';
export { realtimeMachine } from './realtime/realtime.machine';
export { requestServer, type ServerRequestInput, serverRequest } from './realtime/server-request';
export { queueRun, requestQueueMachine } from './requestQueue/requestQueue.machine';
