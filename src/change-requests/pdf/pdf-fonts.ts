import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';

/*
 * The fonts a PDF prints with, and which one shows each character. Text that Windows-1252
 * holds prints in the standard fonts (Helvetica, Courier for code), as before: nothing is
 * embedded for it. Everything else prints in an embedded open font from npm (pdfkit keeps only
 * the glyphs used): Noto Sans for other Latin, Cyrillic and Greek; Noto Sans CJK SC for Chinese
 * and Japanese (one font for the Han characters both write, and kana); Noto Sans CJK KR for
 * Hangul; Noto Naskh Arabic and Noto Sans Hebrew, shaped by fontkit; Noto Emoji (monochrome).
 */

export type FontStyle = { bold?: boolean; italic?: boolean; code?: boolean };

/** A family of embedded fonts; each has a regular and a bold file, some an italic. */
type Family = 'sans' | 'cjk' | 'hangul' | 'arabic' | 'hebrew' | 'emoji';

interface FamilyFiles {
  regular: string;
  bold: string;
  italic?: string;
  boldItalic?: string;
}

const requireFrom = createRequire(__filename);
/** The folder of an installed package (some export only their entry point, not package.json). */
function packageDir(name: string): string {
  let dir = dirname(requireFrom.resolve(name));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const FAMILIES: Record<Family, () => FamilyFiles> = {
  sans: () => {
    const dir = join(packageDir('@embedpdf/fonts-latin'), 'fonts');
    return {
      regular: join(dir, 'NotoSans-Regular.ttf'),
      bold: join(dir, 'NotoSans-Bold.ttf'),
      italic: join(dir, 'NotoSans-Italic.ttf'),
      boldItalic: join(dir, 'NotoSans-BoldItalic.ttf'),
    };
  },
  cjk: () => {
    const dir = join(packageDir('@embedpdf/fonts-sc'), 'fonts');
    return {
      regular: join(dir, 'NotoSansHans-Regular.otf'),
      bold: join(dir, 'NotoSansHans-Bold.otf'),
    };
  },
  hangul: () => {
    const dir = join(packageDir('@embedpdf/fonts-kr'), 'fonts');
    return {
      regular: join(dir, 'NotoSansKR-Regular.otf'),
      bold: join(dir, 'NotoSansKR-Bold.otf'),
    };
  },
  arabic: () => {
    const dir = join(packageDir('@embedpdf/fonts-arabic'), 'fonts');
    return {
      regular: join(dir, 'NotoNaskhArabic-Regular.ttf'),
      bold: join(dir, 'NotoNaskhArabic-Bold.ttf'),
    };
  },
  hebrew: () => {
    const dir = join(packageDir('@embedpdf/fonts-hebrew'), 'fonts');
    return {
      regular: join(dir, 'NotoSansHebrew-Regular.ttf'),
      bold: join(dir, 'NotoSansHebrew-Bold.ttf'),
    };
  },
  emoji: () => {
    const dir = packageDir('@expo-google-fonts/noto-emoji');
    return {
      regular: join(dir, '400Regular', 'NotoEmoji_400Regular.ttf'),
      bold: join(dir, '700Bold', 'NotoEmoji_700Bold.ttf'),
    };
  },
};

/** Families tried, in order, for a character that no script names (symbols, rare letters). */
const FALLBACK_ORDER: Family[] = ['sans', 'cjk', 'hangul', 'arabic', 'hebrew', 'emoji'];

const STANDARD = {
  regular: 'Helvetica',
  bold: 'Helvetica-Bold',
  italic: 'Helvetica-Oblique',
  boldItalic: 'Helvetica-BoldOblique',
  code: 'Courier',
  codeBold: 'Courier-Bold',
  codeItalic: 'Courier-Oblique',
  codeBoldItalic: 'Courier-BoldOblique',
} as const;

/** A stretch of text in one font: `font` is a standard font name or a registered embedded one. */
export interface FontSegment {
  text: string;
  font: string;
  /** The text is written right to left (Arabic, Hebrew). */
  rtl: boolean;
}

/** An embedded font file: its bytes and parsed tables, read once per process. */
interface LoadedFont {
  data: Buffer;
  font: fontkit.Font;
}

const loaded = new Map<string, LoadedFont | null>();

function load(path: string): LoadedFont | null {
  let font = loaded.get(path);
  if (font === undefined) {
    try {
      const data = readFileSync(path);
      const parsed = fontkit.create(data);
      font = 'glyphForCodePoint' in parsed ? { data, font: parsed } : null;
    } catch {
      font = null;
    }
    loaded.set(path, font);
  }
  return font;
}

function fileOf(family: Family, style: FontStyle): string {
  const files = FAMILIES[family]();
  if (style.bold && style.italic) return files.boldItalic ?? files.bold;
  if (style.bold) return files.bold;
  if (style.italic) return files.italic ?? files.regular;
  return files.regular;
}

function fontName(family: Family, style: FontStyle): string {
  return `bindery-${family}${style.bold ? '-bold' : ''}${style.italic ? '-italic' : ''}`;
}

function standardFont(style: FontStyle): string {
  const { bold: b, italic: i, code } = style;
  if (code) {
    return b && i
      ? STANDARD.codeBoldItalic
      : b
        ? STANDARD.codeBold
        : i
          ? STANDARD.codeItalic
          : STANDARD.code;
  }
  return b && i ? STANDARD.boldItalic : b ? STANDARD.bold : i ? STANDARD.italic : STANDARD.regular;
}

/** Windows-1252 characters beyond Latin-1 that the standard fonts have (pdfkit's WIN_ANSI_MAP). */
const WIN_ANSI_EXTRA = new Set(
  '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'.split('').map((char) => char.codePointAt(0)),
);

function isWinAnsi(code: number): boolean {
  return (
    (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(code)
  );
}

/** The family a script's characters print in; undefined when the script does not decide. */
function scriptFamily(code: number): Family | undefined {
  if (
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x3130 && code <= 0x318f) ||
    (code >= 0xa960 && code <= 0xa97f) ||
    (code >= 0xac00 && code <= 0xd7ff)
  ) {
    return 'hangul';
  }
  if (
    (code >= 0x2e80 && code <= 0x2fdf) ||
    (code >= 0x3000 && code <= 0x30ff) ||
    (code >= 0x31c0 && code <= 0x31ff) ||
    (code >= 0x3200 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xffef) ||
    (code >= 0x20000 && code <= 0x3134f)
  ) {
    return 'cjk';
  }
  if (
    (code >= 0x0600 && code <= 0x06ff) ||
    (code >= 0x0750 && code <= 0x077f) ||
    (code >= 0x08a0 && code <= 0x08ff) ||
    (code >= 0xfb50 && code <= 0xfdff) ||
    (code >= 0xfe70 && code <= 0xfeff)
  ) {
    return 'arabic';
  }
  if ((code >= 0x0590 && code <= 0x05ff) || (code >= 0xfb1d && code <= 0xfb4f)) return 'hebrew';
  if (code >= 0x1f1e6 && code <= 0x1f1ff) return 'emoji';
  return undefined;
}

const RTL_FAMILIES = new Set<Family>(['arabic', 'hebrew']);

/** Characters that belong with their neighbours: marks, joiners, selectors, emoji modifiers. */
function isAttached(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (
    /^\p{M}$/u.test(char) ||
    code === 0x200c ||
    code === 0x200d ||
    code === 0xfe0e ||
    code === 0xfe0f ||
    code === 0x20e3 ||
    (code >= 0x1f3fb && code <= 0x1f3ff) ||
    (code >= 0xe0020 && code <= 0xe007f)
  );
}
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
/** Characters any font may show: a space or punctuation keeps the font around it. */
const NEUTRAL = /^[\s\p{P}\p{Zs}]$/u;

function has(family: Family, style: FontStyle, code: number): boolean {
  const font = load(fileOf(family, style));
  return font !== null && font.font.hasGlyphForCodePoint(code);
}

/**
 * Cuts `text` into stretches of one font each: characters of Windows-1252 in the standard font
 * of `style`, emoji in Noto Emoji, other characters in the family their script names, or else
 * the first family that has them. Marks, joiners and emoji modifiers stay with the character
 * before them; spaces and punctuation stay in the font around them when it has them.
 */
export function fontSegments(text: string, style: FontStyle = {}): FontSegment[] {
  const segments: FontSegment[] = [];
  let current: { family: Family | 'standard'; text: string } | undefined;
  const push = (family: Family | 'standard', char: string) => {
    if (current && current.family === family) current.text += char;
    else {
      if (current) segments.push(segment(current.family, current.text, style));
      current = { family, text: char };
    }
  };
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (current && isAttached(char)) {
      current.text += char;
      continue;
    }
    if (PICTOGRAPHIC.test(char) && !isWinAnsi(code) && has('emoji', style, code)) {
      push('emoji', char);
      continue;
    }
    if (
      current &&
      current.family !== 'standard' &&
      NEUTRAL.test(char) &&
      has(current.family, style, code)
    ) {
      current.text += char;
      continue;
    }
    if (isWinAnsi(code) || char === '\n') {
      push('standard', char);
      continue;
    }
    const named = scriptFamily(code);
    if (named && has(named, style, code)) {
      push(named, char);
      continue;
    }
    push(FALLBACK_ORDER.find((family) => has(family, style, code)) ?? 'sans', char);
  }
  if (current) segments.push(segment(current.family, current.text, style));
  return segments;
}

function segment(family: Family | 'standard', text: string, style: FontStyle): FontSegment {
  if (family === 'standard') return { text, font: standardFont(style), rtl: false };
  // Code keeps Courier for what it can show; other characters print in the proportional
  // families, which have no italic for most scripts.
  const embedded = { bold: style.bold, italic: style.italic };
  return { text, font: fontName(family, embedded), rtl: RTL_FAMILIES.has(family) };
}

/** The standard font of a style, for text known to be Windows-1252 (markers, labels). */
export function standardFontOf(style: FontStyle): string {
  return standardFont(style);
}

/**
 * Makes `font` usable in `doc`: a standard font is always there; an embedded one is registered
 * under its name the first time a document uses it (its bytes are read once per process).
 */
export function useFont(doc: PDFKit.PDFDocument, font: string, registered: Set<string>): void {
  if (registered.has(font) || !font.startsWith('bindery-')) return;
  const [, family, ...rest] = font.split('-') as [string, Family, ...string[]];
  const file = fileOf(family, { bold: rest.includes('bold'), italic: rest.includes('italic') });
  const loadedFont = load(file);
  if (!loadedFont) throw new Error(`Font ${font} is not available (${file}).`);
  doc.registerFont(font, loadedFont.data);
  registered.add(font);
}

/** Whether the text's first letter with a direction is of a right-to-left script. */
export function startsRightToLeft(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const family = scriptFamily(code);
    if (family && RTL_FAMILIES.has(family)) return true;
    if (/\p{L}/u.test(char)) return false;
  }
  return false;
}

/** Tabs as spaces; control and invisible format characters (other than joiners) dropped. */
export function cleanText(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (code === 0x0a) out += '\n';
    else if (code === 0x09) out += '    ';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else if (
      /\p{Cf}/u.test(char) &&
      code !== 0x200c &&
      code !== 0x200d &&
      !(code >= 0xe0020 && code <= 0xe007f)
    )
      continue;
    else out += char;
  }
  return out;
}

/** Whether an embedded font (by its registered name) is of a right-to-left script. */
export function isRightToLeftFont(font: string): boolean {
  return font.startsWith('bindery-arabic') || font.startsWith('bindery-hebrew');
}
