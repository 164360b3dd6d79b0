/**
 * A local SMTP server that keeps every message it receives, for tests of n8n's Send Email node
 * (nodemailer): plain SMTP on 127.0.0.1, a free port, no TLS offered (nodemailer then sends in
 * the clear), any login accepted. Each message: envelope sender and recipients, headers, and the
 * body decoded (quoted-printable or base64 parts of a MIME message are decoded and joined).
 */
import { createServer, type Server, type Socket } from 'net';
import type { AddressInfo } from 'net';

export interface ReceivedMail {
	from: string;
	to: string[];
	/** Header lines, unfolded, names lower-cased. */
	headers: Record<string, string>;
	/** The decoded text of every part (HTML included), joined. */
	text: string;
	raw: string;
}

export interface SmtpSink {
	host: string;
	port: number;
	mails: ReceivedMail[];
	close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
	const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
	return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parseHeaders(block: string): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
		const at = line.indexOf(':');
		if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
	}
	return headers;
}

/** The decoded text of a MIME entity (recursing into multiparts). */
function decodeEntity(headers: Record<string, string>, body: string): string {
	const type = headers['content-type'] ?? 'text/plain';
	const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
	if (/^multipart\//i.test(type) && boundary) {
		return body
			.split(`--${boundary}`)
			.slice(1)
			.filter((part) => !part.startsWith('--'))
			.map((part) => {
				const split = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
				return decodeEntity(parseHeaders(split[0]), split.slice(1).join('\n\n'));
			})
			.join('\n');
	}
	const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
	if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
	if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	return body;
}

function parseMail(from: string, to: string[], raw: string): ReceivedMail {
	const split = raw.split(/\r?\n\r?\n/);
	const headers = parseHeaders(split[0]);
	return { from, to, headers, text: decodeEntity(headers, split.slice(1).join('\r\n\r\n')), raw };
}

export async function startSmtpSink(): Promise<SmtpSink> {
	const mails: ReceivedMail[] = [];
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => sockets.delete(socket));
		let buffer = '';
		let inData = false;
		let data: string[] = [];
		let from = '';
		let to: string[] = [];
		const reply = (line: string) => socket.write(`${line}\r\n`);
		reply('220 smtp-sink ready');
		socket.on('data', (chunk: Buffer) => {
			buffer += chunk.toString('latin1');
			let end: number;
			while ((end = buffer.indexOf('\r\n')) >= 0) {
				const line = buffer.slice(0, end);
				buffer = buffer.slice(end + 2);
				if (inData) {
					if (line === '.') {
						inData = false;
						mails.push(parseMail(from, to, Buffer.from(data.join('\r\n'), 'latin1').toString('utf8')));
						data = [];
						reply('250 OK: queued');
					} else data.push(line.startsWith('..') ? line.slice(1) : line);
					continue;
				}
				const command = line.slice(0, 4).toUpperCase();
				if (command === 'EHLO') {
					socket.write('250-smtp-sink\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n');
				} else if (command === 'HELO') reply('250 smtp-sink');
				else if (command === 'AUTH') reply('235 Authentication successful');
				else if (command === 'MAIL') {
					from = /<([^>]*)>/.exec(line)?.[1] ?? '';
					to = [];
					reply('250 OK');
				} else if (command === 'RCPT') {
					to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
					reply('250 OK');
				} else if (command === 'DATA') {
					inData = true;
					reply('354 End data with <CR><LF>.<CR><LF>');
				} else if (command === 'QUIT') {
					reply('221 Bye');
					socket.end();
				} else if (command === 'RSET' || command === 'NOOP') reply('250 OK');
				else reply('502 Command not implemented');
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		host: '127.0.0.1',
		port,
		mails,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}
