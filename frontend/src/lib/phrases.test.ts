import { loadDefaultJapaneseParser } from 'budoux';
import { describe, expect, it } from 'vitest';
import { refinePhrases, type PhrasesAnswer, type PhrasesRequest } from './phraseRules';
import { workerSegmenter } from './phrases';

const parser = loadDefaultJapaneseParser();
const phrasesOf = (text: string): string[] => refinePhrases(parser.parse(text));

describe('refinePhrases', () => {
  it('keeps a word whole that BudouX cuts between two hiragana, moving the break to the next content word', () => {
    expect(parser.parse('前橋ばら園 花壇よみがえりプロジェクト').some((phrase) => phrase.endsWith('よみが'))).toBe(true);
    expect(phrasesOf('前橋ばら園 花壇よみがえりプロジェクト')).toEqual(['前橋ばら園 花壇よみがえり', 'プロジェクト']);
  });

  it('keeps a reading in brackets whole', () => {
    expect(phrasesOf('桐生織 機場（はたば）再生プロジェクト')).toContain('（はたば）');
  });

  it('keeps the breaks after a particle that follows a content word', () => {
    expect(phrasesOf('まちの挑戦を、ひとりひとりの支援で形にします。')).toEqual([
      'まちの',
      '挑戦を、',
      'ひとりひとりの',
      '支援で',
      '形にします。',
    ]);
  });

  it('never breaks between two digits or letters', () => {
    expect(refinePhrases(['10,0', '00円'])).toEqual(['10,000円']);
    expect(refinePhrases(['R0HZE', 'PBO'])).toEqual(['R0HZEPBO']);
  });
});

/** A worker stand-in: records what the page posts, and answers or fails when the test says so. */
class FakeWorker {
  posted: PhrasesRequest[] = [];
  private listeners: Record<string, ((event: { data?: unknown }) => void)[]> = {};

  addEventListener(type: string, listener: (event: { data?: unknown }) => void) {
    (this.listeners[type] ??= []).push(listener);
  }

  postMessage(request: PhrasesRequest) {
    this.posted.push(request);
  }

  answer(answer: PhrasesAnswer) {
    this.listeners.message?.forEach((listener) => listener({ data: answer }));
  }

  fail() {
    this.listeners.error?.forEach((listener) => listener({}));
  }
}

describe('workerSegmenter', () => {
  it('gives each text the phrases answered for it, whatever order the answers come in', async () => {
    const worker = new FakeWorker();
    const segment = workerSegmenter(worker as unknown as Worker);
    const first = segment('前橋ばら園');
    const second = segment('花壇よみがえりプロジェクト');
    const [a, b] = worker.posted;
    expect(worker.posted.map((request) => request.text)).toEqual(['前橋ばら園', '花壇よみがえりプロジェクト']);
    worker.answer({ id: b!.id, phrases: ['花壇よみがえり', 'プロジェクト'] });
    worker.answer({ id: a!.id, phrases: ['前橋', 'ばら園'] });
    await expect(first).resolves.toEqual(['前橋', 'ばら園']);
    await expect(second).resolves.toEqual(['花壇よみがえり', 'プロジェクト']);
  });

  it('fails the texts waiting when the worker fails, and every text after', async () => {
    const worker = new FakeWorker();
    const segment = workerSegmenter(worker as unknown as Worker);
    const waiting = segment('前橋ばら園');
    worker.fail();
    await expect(waiting).rejects.toThrow('the phrases worker failed');
    await expect(segment('花壇')).rejects.toThrow('the phrases worker failed');
    expect(worker.posted).toHaveLength(1);
  });
});
