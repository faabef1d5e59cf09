/**
 * The SMTP conversation, on a thread of its own (see transport.server.ts): nodemailer's pooled transport, fed
 * one message at a time by the shop's mail worker, each answered with its outcome. Plain TypeScript with
 * imports Node resolves itself, so it runs as it is (tests, development) and as its own file in the build.
 */
import { parentPort, workerData } from 'node:worker_threads';
import nodemailer, { type SendMailOptions } from 'nodemailer';

type Request = { id: number; message: SendMailOptions };
/** What the shop's side rebuilds the error from: its text, nodemailer's code and the server's SMTP answer code. */
export type ThreadAnswer = { id: number; error?: { message: string; code?: string; responseCode?: number } };

const transporter = nodemailer.createTransport(workerData as Parameters<typeof nodemailer.createTransport>[0]);

parentPort!.on('message', (request: Request | 'close') => {
  if (request === 'close') {
    transporter.close();
    parentPort!.close();
    return;
  }
  transporter.sendMail(request.message).then(
    () => parentPort!.postMessage({ id: request.id } satisfies ThreadAnswer),
    (error: { message?: unknown; code?: unknown; responseCode?: unknown }) =>
      parentPort!.postMessage({
        id: request.id,
        error: {
          message: typeof error?.message === 'string' ? error.message : String(error),
          ...(typeof error?.code === 'string' ? { code: error.code } : {}),
          ...(typeof error?.responseCode === 'number' ? { responseCode: error.responseCode } : {}),
        },
      } satisfies ThreadAnswer),
  );
});
