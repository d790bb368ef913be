// One voice message plays at a time: starting one pauses the one that was playing.
let current: HTMLMediaElement | null = null;

export function claimPlayback(el: HTMLMediaElement): void {
  if (current && current !== el) current.pause();
  current = el;
}

export function releasePlayback(el: HTMLMediaElement): void {
  if (current === el) current = null;
}
