// A local mail catcher: a real SMTP server (smtp-server) that keeps what the shop sends, parsed by
// mailparser, and a small web page to read it. `npm start` and the browser tests run one in place
// of a mail provider; the API tests use it to receive real SMTP. Nothing is sent on.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { escapeMarkup } from '../../api/src/lib/text.ts';

/** Messages kept: the newest, so a long session does not grow without bound. */
const KEPT = 200;

export interface CaughtMail {
  id: number;
  receivedAt: Date;
  to: string[];
  parsed: ParsedMail;
}

export async function startMailCatcher({ smtpPort = 0, webPort = 0, host = '127.0.0.1' } = {}) {
  const messages: CaughtMail[] = [];
  let nextId = 1;
  /** How many of the next messages to refuse (a transient 451), and whether to refuse all (a server down for good). */
  const refusing = { next: 0, all: false };
  const waiters: (() => void)[] = [];

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusing.all || refusing.next > 0) {
          if (refusing.next > 0) refusing.next -= 1;
          const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
          return callback(error);
        }
        simpleParser(Buffer.concat(chunks)).then(
          (parsed) => {
            messages.push({ id: nextId++, receivedAt: new Date(), to: session.envelope.rcptTo.map((r) => r.address), parsed });
            if (messages.length > KEPT) messages.shift();
            for (const wake of waiters.splice(0)) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(smtpPort, host, resolve));
  const smtpAddress = smtp.server.address() as AddressInfo;

  const web = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://catcher');
    const one = /^\/messages\/(\d+)$/.exec(url.pathname);
    if (one) {
      const mail = messages.find((m) => m.id === Number(one[1]));
      if (!mail) return response.writeHead(404).end('No such message.');
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:",
      });
      // The message's own HTML, shown in a sandboxed frame: it runs nothing.
      return response.end(`<!doctype html><html><head><title>${escapeMarkup(mail.parsed.subject ?? '')}</title></head><body>
<p><a href="/">All messages</a></p><h1>${escapeMarkup(mail.parsed.subject ?? '(no subject)')}</h1>
<p>To: ${escapeMarkup(mail.to.join(', '))}<br>From: ${escapeMarkup(mail.parsed.from?.text ?? '')}</p>
<iframe sandbox title="The message" style="width:100%;height:60vh;border:1px solid #ccc" srcdoc="${escapeMarkup(typeof mail.parsed.html === 'string' ? mail.parsed.html : '')}"></iframe>
<h2>Plain text</h2><pre>${escapeMarkup(mail.parsed.text ?? '')}</pre></body></html>`);
    }
    if (url.pathname !== '/') return response.writeHead(404).end('Not found.');
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
    const rows = [...messages]
      .reverse()
      .map(
        (m) =>
          `<tr><td>${m.receivedAt.toISOString().slice(0, 19).replace('T', ' ')}</td><td>${escapeMarkup(m.to.join(', '))}</td><td><a href="/messages/${m.id}">${escapeMarkup(m.parsed.subject ?? '(no subject)')}</a></td></tr>`,
      )
      .join('');
    response.end(`<!doctype html><html><head><title>Mail catcher</title></head><body><h1>Mail the shop sent</h1>
${messages.length ? `<table><thead><tr><th>Received (UTC)</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>` : '<p>No mail yet.</p>'}
</body></html>`);
  });
  await new Promise<void>((resolve) => web.listen(webPort, host, resolve));
  const webAddress = web.address() as AddressInfo;

  return {
    smtpUrl: `smtp://${host}:${smtpAddress.port}`,
    webUrl: `http://${host}:${webAddress.port}`,
    messages,
    refusing,
    /** Resolves once `count` messages have arrived in all (or rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return messages;
    },
    async stop() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}

export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;
