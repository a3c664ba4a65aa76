import { IsString, validate } from 'class-validator';
import { charCount, Chars, MaxChars } from './chars';

class Sample {
  @IsString()
  @MaxChars(3)
  title!: string;

  @IsString()
  @Chars(1, 2)
  code!: string;
}

async function problems(title: string, code = 'a'): Promise<string[]> {
  const sample = Object.assign(new Sample(), { title, code });
  return (await validate(sample)).flatMap((error) => Object.values(error.constraints ?? {}));
}

describe('character counts', () => {
  it('counts code points, as varchar(n) does', () => {
    expect(charCount('abc')).toBe(3);
    expect(charCount('😀😀')).toBe(2);
    expect(charCount('❤️')).toBe(2); // U+2764 and the presentation selector U+FE0F
  });

  it('MaxChars refuses what the column would refuse, with MaxLength wording', async () => {
    expect(await problems('abc')).toEqual([]);
    expect(await problems('😀😀😀')).toEqual([]);
    expect(await problems('❤️❤️')).toEqual(['title must be shorter than or equal to 3 characters']);
  });

  it('Chars checks both bounds', async () => {
    expect(await problems('a', '')).toEqual(['code must be longer than or equal to 1 characters']);
    expect(await problems('a', '❤️')).toEqual([]);
    expect(await problems('a', '❤️x')).toEqual([
      'code must be shorter than or equal to 2 characters',
    ]);
  });
});
