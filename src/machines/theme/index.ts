// The public face of the theme feature: other features import only this module, src/ui/theme/index.ts and its *.protocol.ts files.
export { themeMachine } from './theme/theme.machine';
