/** A formula typeset as SVG: its markup and its size in ex (of the text around it). */
export interface MathSvg {
  svg: string;
  widthEx: number;
  heightEx: number;
  /** How far below the baseline the formula reaches, in ex. */
  depthEx: number;
}

type Converter = (tex: string, display: boolean) => string;

let converter: Promise<Converter> | undefined;

/**
 * MathJax (TeX input, SVG output with its glyphs as paths), loaded on the first formula a PDF
 * prints: a process that prints no math does not pay for it.
 */
function load(): Promise<Converter> {
  converter ??= (async () => {
    const [
      { mathjax },
      { TeX },
      { SVG },
      { liteAdaptor },
      { RegisterHTMLHandler },
      { AllPackages },
    ] = await Promise.all([
      import('mathjax-full/js/mathjax.js'),
      import('mathjax-full/js/input/tex.js'),
      import('mathjax-full/js/output/svg.js'),
      import('mathjax-full/js/adaptors/liteAdaptor.js'),
      import('mathjax-full/js/handlers/html.js'),
      import('mathjax-full/js/input/tex/AllPackages.js'),
    ]);
    const adaptor = liteAdaptor();
    RegisterHTMLHandler(adaptor);
    const document = mathjax.document('', {
      InputJax: new TeX({
        // A formula MathJax cannot read prints as its source, not as an error box.
        packages: AllPackages.filter((name) => name !== 'noerrors' && name !== 'noundefined'),
        formatError: (_jax: unknown, error: Error) => {
          throw error;
        },
      }),
      OutputJax: new SVG({ fontCache: 'none' }),
    });
    return (tex: string, display: boolean) =>
      adaptor.innerHTML(document.convert(tex, { display }) as never);
  })();
  return converter;
}

/** The formula `tex` as SVG, or undefined when it is not TeX that MathJax reads. */
export async function mathSvg(tex: string, display: boolean): Promise<MathSvg | undefined> {
  if (tex.trim() === '') return undefined;
  const convert = await load();
  let svg: string;
  try {
    svg = convert(tex, display);
  } catch {
    return undefined;
  }
  const width = /\swidth="([\d.]+)ex"/.exec(svg);
  const height = /\sheight="([\d.]+)ex"/.exec(svg);
  const align = /vertical-align:\s*(-?[\d.]+)ex/.exec(svg);
  if (!width || !height || !svg.includes('<path')) return undefined;
  return {
    svg,
    widthEx: Number(width[1]),
    heightEx: Number(height[1]),
    depthEx: align ? -Number(align[1]) : 0,
  };
}
