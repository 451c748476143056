// Writes list.ts: the passwords guessers try first, from the patterns every published leak
// analysis finds at the top (a common word or name, a keyboard walk or a digit run, then a
// number, a year or a "!"; the same with letters swapped for look-alike digits), ranked by
// how common the word is, then the ending. `npx tsx server/auth/common-passwords/generate.ts`
// rewrites it; nothing fetches anything. Only entries of 8 characters or more are kept: the
// length rule refuses the shorter ones before this list is read.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const WORDS = `password passw0rd qwerty iloveyou admin welcome monkey dragon letmein football baseball sunshine princess
master shadow superman michael jennifer jordan hunter trustno1 ashley bailey charlie donald freedom whatever qazwsx
mustang starwars batman login hello access flower hottie loveme lovely ninja azerty soccer hockey killer george andrew
harley ranger thomas robert daniel matrix pepper summer winter spring autumn orange cheese computer internet secret
samsung google apple chocolate butterfly liverpool chelsea arsenal barcelona pokemon naruto minecraft jessica michelle
nicole anthony joshua william maggie buster ginger tigger cookie silver golden diamond eagle falcon phoenix london paris
berlin america canada mexico qwertyuiop asdfghjkl zxcvbnm 1qaz2wsx changeme default guest root test user administrator
manager server database office company business marketing social instagram facebook twitter linkedin youtube herald
agency family friends forever angel baby babygirl sweetheart lover jesus christ blessed heaven soccer1 purple yellow
blue black white green red pink yankees lakers cowboys steelers eagles packers dallas boston chicago newyork texas
florida california melissa amanda jessica1 sophie olivia emma charlotte daniela maria carlos juan pedro alex
alexander christopher matthew david james john richard joseph mark paul steven kevin brian edward ronald timothy jason
jeffrey ryan jacob gary nicholas eric stephen jonathan larry justin scott brandon benjamin samuel frank gregory raymond
patrick jack dennis jerry tyler aaron henry douglas peter adam nathan zachary walter kyle harold carl arthur gerald
roger keith jeremy terry lawrence sean christian albert joe ethan austin jesse willie billy bryan bruce ralph roy
eugene louis wayne russell vincent philip bobby johnny bradley monica martin rachel sarah hannah lauren stephanie
elizabeth victoria samantha natalie rebecca courtney chelsea1 heather tiffany crystal danielle brittany amber kimberly
secure security private personal mypassword mypass passport passwort motdepasse contraseña senha parola salasana
wachtwoord haslo heslo jelszo lozinka geslo parool sifre pass pass123 p@ssword p@ssw0rd letmein1 welcome1 abc123
abcdef abcdefg abcdefgh abcdefghij iloveyou1 qwerty1 qwertyui qwerty123 asdfgh asdf1234 zaq12wsx 1q2w3e4r 1q2w3e4r5t
q1w2e3r4 q1w2e3r4t5 qweasdzxc qwe123 123qwe 1qazxsw2 zxcvbn poiuytrewq mnbvcxz lkjhgfdsa 0987654321 1234567890
123456789 12345678 1234567 123123 123321 112233 121212 654321 666666 696969 7777777 88888888 987654321 147258369
159753 159357 741852963 11223344 123454321 12344321 a1b2c3d4 aa123456 a123456 abc12345 abcd1234 password1 superstar
rockstar gangster hustler player playboy bigdaddy daddy mommy mother father sister brother money cash dollar bitcoin
crypto nintendo playstation xbox gamer warcraft counterstrike fortnite roblox zelda mario sonic spiderman ironman
captain america1 avengers marvel gandalf frodo hogwarts harrypotter pikachu digimon doraemon sakura onepiece goku
dragonball metallica nirvana beatles elvis madonna eminem rihanna beyonce justin1 bieber taylor swift coldplay
music guitar piano dance singer football1 basketball tennis golf runner swimmer cricket rugby boxing karate jiujitsu
summer1 winter1 monday friday sunday january february march april june july august september october november december`
  .split(/\s+/)
  .filter(Boolean);

const SUFFIXES = [
  '',
  '1',
  '123',
  '12',
  '!',
  '1234',
  '12345',
  '1!',
  '123456',
  '01',
  '2',
  '7',
  '69',
  '007',
  '123!',
  '@123',
  '#1',
  '11',
  '13',
  '22',
  '99',
  '00',
  '21',
  '23',
  '10',
  '2024',
  '2025',
  '2023',
  '2026',
  '2022',
  '2021',
  '2020',
  '2019',
  '2018',
  '2017',
  '2016',
  '2015',
  '2010',
  '2000',
  '1999',
  '1998',
  '1997',
  '1996',
  '1995',
  '1994',
  '1993',
  '1992',
  '1991',
  '1990',
  '1989',
  '1988',
  '1987',
  '1986',
  '1985',
  '1980',
  '123456789',
  '1234567890',
  '!!',
  '!@#',
  '@',
  '.',
  '*',
  '$',
  '3',
  '4',
  '5',
  '6',
  '8',
  '9',
  '0',
  '111',
  '000',
  '321',
  '777',
  '666',
  '888',
  '999',
  '2027',
  '2028',
  '2029',
  '2030',
];

const LEET: Array<[RegExp, string]> = [
  [/a/g, '@'],
  [/o/g, '0'],
  [/e/g, '3'],
  [/i/g, '1'],
  [/s/g, '$'],
];

function variants(word: string): string[] {
  const out = [word];
  let all = word;
  for (const [from, to] of LEET) {
    if (from.test(word)) out.push(word.replace(from, to));
    all = all.replace(from, to);
  }
  if (all !== word) out.push(all);
  return [...new Set(out)];
}

const MIN_KEPT = 8;
const LIMIT = 10_000;
const seen = new Set<string>();
const list: string[] = [];
const add = (candidate: string) => {
  const p = candidate.toLowerCase();
  if (p.length >= MIN_KEPT && !seen.has(p) && list.length < LIMIT) {
    seen.add(p);
    list.push(p);
  }
};

// Digit runs and their doublings come first: they top every leak.
for (let n = MIN_KEPT; n <= 16; n++) {
  add('1234567890'.repeat(2).slice(0, n));
  add('0987654321'.repeat(2).slice(0, n));
  add('123123123123123123'.slice(0, n));
}
// Then words by rank: the most common words with every ending first (a top word with a rare
// ending is guessed before a rare word), then the rest with the common endings, the common
// ending before the rarer one.
const TOP = 60;
const tiers: Array<[string[], string[]]> = [
  [WORDS.slice(0, TOP), SUFFIXES],
  [WORDS.slice(TOP), SUFFIXES.slice(0, 12)],
  [WORDS.slice(TOP), SUFFIXES.slice(12)],
];
for (const word of WORDS) {
  add(word + word);
  add(`123${word}`);
  add(`1${word}1`);
}
for (const [words, suffixes] of tiers) {
  for (const suffix of suffixes) for (const word of words) for (const v of variants(word)) add(v + suffix);
}

// A module, not a text file beside it: the server bundle and the standalone output carry it
// without a file to trace or a path to resolve at run time.
const file = path.join(import.meta.dirname, 'list.ts');
const header = '// Generated by generate.ts beside this file (the patterns and their ranking are there); one password a line.\n';
writeFileSync(file, `${header}export const COMMON_PASSWORDS_TEXT = \`\n${list.join('\n')}\n\`;\n`);
console.log(`${list.length} passwords in ${file}`);
