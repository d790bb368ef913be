// The registration hears this browser's request for approval whether it opened before or after it started listening.
import { describe, expect, it } from 'vitest';
import { approvalAsked, onApprovalAsked } from './approval-asked';

describe('approvalAsked', () => {
  it('tells a listener of each request, and one that comes later of the request still open', () => {
    const heard: string[] = [];
    const stopEarly = onApprovalAsked(() => heard.push('early'));
    approvalAsked(true);
    const stopLate = onApprovalAsked(() => heard.push('late'));
    expect(heard).toEqual(['early', 'late']);
    approvalAsked(false);
    const stopAfter = onApprovalAsked(() => heard.push('after'));
    expect(heard).toEqual(['early', 'late']);
    for (const stop of [stopEarly, stopLate, stopAfter]) stop();
    approvalAsked(true);
    expect(heard).toEqual(['early', 'late']);
    approvalAsked(false);
  });
});
