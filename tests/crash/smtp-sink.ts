/**
 * The crash test's SMTP server, in a process of its own: accepts every message and appends a JSON line per
 * message (Message-ID, recipients, subject, when) to FILE, written before the "250 OK" goes out.
 * Usage: node --import tsx tests/crash/smtp-sink.ts PORT FILE
 */
import fs from 'node:fs';
import { SMTPServer } from 'smtp-server';

const [port, file] = process.argv.slice(2);
const out = fs.openSync(file, 'a');

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  maxClients: 200,
  onData(stream, session, callback) {
    let head = '';
    stream.on('data', (chunk: Buffer) => {
      if (head.length < 16_384) head += chunk.toString('utf8');
    });
    stream.on('end', () => {
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
      const line = { messageId: header('Message-ID'), to: session.envelope.rcptTo.map((r) => r.address), subject: header('Subject'), at: Date.now() };
      fs.writeSync(out, `${JSON.stringify(line)}\n`);
      callback();
    });
  },
});
// A shop killed mid-message resets its connections: that is an error of one connection, not of the server
// (without a listener, smtp-server's 'error' event would end this process).
server.on('error', (error) => console.error(`smtp-sink: ${(error as Error).message}`));
server.listen(Number(port), '127.0.0.1', () => process.send?.({ ready: true }));
