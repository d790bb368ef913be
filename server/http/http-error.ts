// A refusal with its status and Russian message; its own module so that server/db/unavailable.ts can extend it
// while errors.ts, which maps errors to answers, imports that classifier.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
