import { describe, expect, it } from 'vitest';
import { projectIdOf, validateDraft } from './AdminMailRegister';
import { formatDateTime } from './AdminMail';

describe('the mail form rules (spec 001 §5)', () => {
  it('asks for a title and a body', () => {
    expect(validateDraft({ project: '', title: '  ', content: '<p></p>' })).toEqual({
      title: 'タイトルを入力してください。',
      content: '内容を入力してください。',
    });
  });

  it('accepts a body with text, and one that is only an image', () => {
    expect(validateDraft({ project: '', title: 'お知らせ', content: '<p><strong>本文</strong></p>' })).toEqual({
      title: null,
      content: null,
    });
    expect(validateDraft({ project: '', title: 'お知らせ', content: '<p><img src="/a.png"></p>' }).content).toBeNull();
  });

  it('sends the project id as a number, and no project for everyone', () => {
    expect(projectIdOf('12')).toBe(12);
    expect(projectIdOf('')).toBeNull();
  });
});

describe('the list dates', () => {
  it('shows the Tokyo time the server sent, to the minute', () => {
    expect(formatDateTime('2026-11-26T09:05:00+09:00')).toBe('2026/11/26 09:05');
  });
});
