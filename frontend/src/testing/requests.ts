import { http, HttpResponse, type JsonBodyType } from 'msw';
import { apiUrl, server } from './server';

type Reply = JsonBodyType | { status: number; body: JsonBodyType };

const isStatusReply = (reply: Reply): reply is { status: number; body: JsonBodyType } =>
  typeof reply === 'object' && reply !== null && !Array.isArray(reply) && 'status' in reply && 'body' in reply;

/**
 * Answers `POST /v1{path}` with `reply` (a JSON body, or `{ status, body }` for an error)
 * and records the JSON bodies it received.
 */
export const answerPost = <B = Record<string, unknown>>(path: string, reply: Reply): B[] => {
  const bodies: B[] = [];
  server.use(
    http.post(apiUrl(path), async ({ request }) => {
      bodies.push((await request.json()) as B);
      return isStatusReply(reply)
        ? HttpResponse.json(reply.body, { status: reply.status })
        : HttpResponse.json(reply);
    }),
  );
  return bodies;
};
