// A mail catcher for the image check, standing in for Mailpit (no registry serves its image here):
// it speaks just enough SMTP to accept every message, and keeps them.
import net from 'node:net';

export async function startSmtpSink(): Promise<{ port: number; messages(): string[]; stop(): Promise<void> }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data: string | null = null;
    let buffer = '';
    socket.setEncoding('utf8');
    socket.write('220 image-check SMTP sink\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push(data);
            data = null;
            socket.write('250 kept\r\n');
          } else data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-image-check\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    messages: () => [...messages],
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
