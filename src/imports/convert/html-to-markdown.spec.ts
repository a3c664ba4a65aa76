import { htmlToMarkdown } from './html-to-markdown';

describe('htmlToMarkdown', () => {
  it('writes headings, marks, lists and links in GitBook markdown', () => {
    const markdown = htmlToMarkdown(
      '<h2>Install <a class="headerlink" href="#install">¶</a></h2><h3><a href="#usage">Usage</a></h3>' +
        '<p>Some <b>bold</b>, <i>em</i>, <del>gone</del> and <code>code</code>, a <a href="https://x.test/a b">link</a>.</p>' +
        '<ul><li>one</li><li>two<ol><li>nested</li></ol></li></ul><p>line<br>break</p><hr>',
    );
    expect(markdown).toBe(
      '## Install\n\n### Usage\n\nSome **bold**, _em_, ~gone~ and `code`, a [link](https://x.test/a%20b).\n\n' +
        '*   one\n*   two\n    1.  nested\n\nline\\\nbreak\n\n***\n',
    );
  });

  it('fences code with its language from the classes of the block or its wrappers', () => {
    const markdown = htmlToMarkdown(
      '<div class="highlight-python notranslate"><div class="highlight"><pre><span class="linenos">1</span>def f():\n    return 1\n\nx = 2\n</pre></div></div>' +
        '<pre><code class="language-ts">const a = `x`;\n```\n</code></pre>' +
        '<pre class="syntaxhighlighter-pre" data-syntaxhighlighter-params="brush: java; gutter: false">int a;</pre>' +
        '<pre data-title="app.sh"><code>echo hi</code></pre>',
    );
    expect(markdown).toBe(
      '```python\ndef f():\n    return 1\n\nx = 2\n```\n\n' +
        '````ts\nconst a = `x`;\n```\n````\n\n' +
        '```java\nint a;\n```\n\n' +
        '{% code title="app.sh" %}\n```\necho hi\n```\n{% endcode %}\n',
    );
  });

  it('writes GFM tables: a header row always, empty and spanning cells padded, pipes escaped', () => {
    const markdown = htmlToMarkdown(
      '<table><caption>Caption</caption><tr><td>A</td><td>B|C</td></tr><tr><td></td><td><p>x</p><p>y</p></td></tr>' +
        '<tr><td colspan="2">wide</td></tr></table>' +
        '<table><thead><tr><th>H</th><th>I</th></tr></thead><tbody><tr><td>1</td><td><a href="p.html">2</a></td></tr></tbody></table>',
    );
    expect(markdown).toBe(
      '| A | B\\|C |\n| --- | --- |\n| | x<br><br>y |\n| wide | |\n\n' +
        '| H | I |\n| --- | --- |\n| 1 | [2](p.html) |\n',
    );
  });

  it('gives images and links to the callbacks, and drops what they refuse', () => {
    const markdown = htmlToMarkdown(
      '<p><img src="a.png" alt="A [x]"> <img src="icon.png"> <a href="keep.html">kept</a> <a href="drop.html">dropped</a> <a href="x"></a></p>' +
        '<figure><img src="b.png" alt="B"><figcaption>Cap &amp; <b>tion</b></figcaption></figure>',
      {
        image: (src) => (src === 'icon.png' ? undefined : `assets/${src}`),
        link: (href) => (href === 'drop.html' ? undefined : `/${href}`),
      },
    );
    expect(markdown).toBe(
      '![A \\[x\\]](assets/a.png)  [kept](/keep.html) dropped\n\n' +
        '<figure><img src="assets/b.png" alt="B"><figcaption><p>Cap &#x26; tion</p></figcaption></figure>\n',
    );
  });

  it('writes admonitions, callouts and Confluence macros as hints, frames as embeds', () => {
    const markdown = htmlToMarkdown(
      '<div class="admonition warning"><p class="admonition-title">Warning</p><p>Careful.</p></div>' +
        '<div class="admonition tip"><p class="admonition-title">Pro tip</p><p>Do it.</p></div>' +
        '<div class="confluence-information-macro confluence-information-macro-note"><span class="confluence-information-macro-icon"></span><div>Yellow.</div></div>' +
        '<iframe src="https://www.youtube.com/embed/xyz"></iframe><script>alert(1)</script>',
    );
    expect(markdown).toBe(
      '{% hint style="warning" %}\nCareful.\n{% endhint %}\n\n' +
        '{% hint style="success" %}\nPro tip\n\nDo it.\n{% endhint %}\n\n' +
        '{% hint style="warning" %}\nYellow.\n{% endhint %}\n\n' +
        '{% embed url="https://www.youtube.com/embed/xyz" %}\n',
    );
  });

  it("escapes text that GitBook's dialect would read as a tag", () => {
    expect(htmlToMarkdown('<p>Use {% raw %} and a_b * c</p>')).toBe(
      'Use {\\% raw %} and a\\_b \\* c\n',
    );
  });
});
