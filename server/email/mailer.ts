// The email port. Herald sends little mail (email verification, team invitations, password
// reset links, notices of a sign-in lock or a changed password), through SMTP when
// SMTP_URL is configured, and otherwise into a local mailbox: each message a JSON file under
// DATA_DIR/mailbox/, and a log line with its links, so a developer (or a first-run operator
// without SMTP yet) can read it. Callers build the message; this decides where it goes.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '@/server/config/env';
import { log } from '@/server/observability/log';

export interface OutgoingEmail {
  to: string;
  subject: string;
  /** Plain text; links written out whole. */
  text: string;
}

export interface StoredEmail extends OutgoingEmail {
  id: string;
  from: string;
  sentAt: string;
}

export const mailboxDir = () => path.resolve(env.dataDir(), 'mailbox');

let transporter: { url: string; transport: Transporter } | undefined;

function smtp(url: string): Transporter {
  if (transporter?.url !== url) transporter = { url, transport: nodemailer.createTransport(url) };
  return transporter.transport;
}

const linksOf = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];

/** Sends, or stores in the local mailbox; throws when SMTP refuses (the caller decides what that means). */
export async function sendEmail(message: OutgoingEmail): Promise<void> {
  const from = env.mailFrom();
  const url = env.smtpUrl();
  if (url) {
    await smtp(url).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    log.info('email', `sent "${message.subject}" to ${message.to}`);
    return;
  }
  const stored: StoredEmail = { id: randomUUID(), from, sentAt: new Date().toISOString(), ...message };
  await mkdir(mailboxDir(), { recursive: true });
  await writeFile(path.join(mailboxDir(), `${stored.sentAt.replace(/[:.]/g, '-')}-${stored.id}.json`), JSON.stringify(stored, null, 2));
  log.info('email', `"${message.subject}" to ${message.to} is in the local mailbox (${mailboxDir()}); no SMTP_URL is set`, {
    links: linksOf(message.text),
  });
}

/** The local mailbox, newest first (tests, and the operator of an instance without SMTP). */
export async function readMailbox(to?: string): Promise<StoredEmail[]> {
  let names: string[];
  try {
    names = await readdir(mailboxDir());
  } catch {
    return [];
  }
  const all = await Promise.all(
    names.filter((n) => n.endsWith('.json')).map(async (n) => JSON.parse(await readFile(path.join(mailboxDir(), n), 'utf8')) as StoredEmail),
  );
  return all.filter((m) => !to || m.to.toLowerCase() === to.toLowerCase()).sort((a, b) => b.sentAt.localeCompare(a.sentAt));
}
