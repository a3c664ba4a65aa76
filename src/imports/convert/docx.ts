import mammoth from 'mammoth';

/**
 * A Word document as HTML (mammoth: headings, lists, tables, marks, links, footnotes), its
 * embedded images given to `image` (their bytes and type → the `src` to write).
 */
export async function docxToHtml(
  bytes: Buffer,
  image: (bytes: Buffer, contentType: string) => string,
  warn: (message: string) => void,
): Promise<string> {
  const result = await mammoth.convertToHtml(
    { buffer: bytes },
    {
      styleMap: [
        "p[style-name='Title'] => h1:fresh",
        "p[style-name='Subtitle'] => h2:fresh",
        "p[style-name='Code'] => pre:separator('\\n')",
        "p[style-name='Source Code'] => pre:separator('\\n')",
        "r[style-name='Code Char'] => code",
        "p[style-name='Quote'] => blockquote > p:fresh",
        "p[style-name='Intense Quote'] => blockquote > p:fresh",
      ],
      convertImage: mammoth.images.imgElement(async (element) => {
        const data = Buffer.from(await element.read());
        return { src: image(data, element.contentType) };
      }),
    },
  );
  for (const message of result.messages) {
    if (message.type === 'error') warn(message.message);
  }
  return result.value;
}
