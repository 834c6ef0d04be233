import type { ApiErrorBody } from '@/lib/apiError';
import type { ContentInput, ManualSponsorDraft, ProjectContent } from './types';

export const CONTENT_MESSAGES = {
  saved: 'ページの内容を保存しました。',
  saveFailed: 'ページの内容を保存できませんでした。時間をおいて再度お試しください。',
  uploaded: '画像を登録しました。',
  removed: '画像を削除しました。',
  uploadFailed: '画像を登録できませんでした。時間をおいて再度お試しください。',
  ownerFirst: '実行者名を保存すると画像を登録できます。',
  noSlides: 'スライダー画像はまだありません。',
  noFaqs: 'よくある質問はまだありません。',
} as const;

/** The form's values as typed. */
export interface ContentDraft {
  honorImgLink: string;
  slider: { id: number; src: string; alt: string }[];
  owner: { name: string; profile: string; links: { label: string; url: string }[] };
  faqs: { question: string; answer: string }[];
}

export const draftOf = (content: ProjectContent): ContentDraft => ({
  honorImgLink: content.honorImgLink ?? '',
  slider: content.slider.map((s) => ({ id: s.id, src: s.src, alt: s.alt })),
  owner: {
    name: content.owner?.name ?? '',
    profile: content.owner?.profile ?? '',
    links: content.owner?.links.map((l) => ({ ...l })) ?? [],
  },
  faqs: content.faqs.map((f) => ({ ...f })),
});

/** What is sent: an owner with nothing written is no owner (the server decides the same). */
export const inputOf = (draft: ContentDraft): ContentInput => {
  const owner = draft.owner;
  const blank = (s: string) => s.trim() === '';
  const noOwner = blank(owner.name) && blank(owner.profile) && owner.links.every((l) => blank(l.label) && blank(l.url));
  return {
    honorImgLink: blank(draft.honorImgLink) ? null : draft.honorImgLink.trim(),
    slider: draft.slider.map((s) => ({ id: s.id, alt: s.alt })),
    owner: noOwner ? null : { name: owner.name, profile: owner.profile, links: owner.links },
    faqs: draft.faqs,
  };
};

/** Slides uploaded since the form was opened join its list at the end; the form's own edits stay. */
export const withNewSlides = (draft: ContentDraft, content: ProjectContent): ContentDraft => {
  const known = new Set(draft.slider.map((s) => s.id));
  const added = content.slider.filter((s) => !known.has(s.id)).map((s) => ({ id: s.id, src: s.src, alt: s.alt }));
  return added.length === 0 ? draft : { ...draft, slider: [...draft.slider, ...added] };
};

/** Moves item `index` by `step` (-1 up, +1 down); out of range changes nothing. */
export const moved = <T>(list: readonly T[], index: number, step: -1 | 1): T[] => {
  const to = index + step;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(index, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
};

/** The server's messages by field path (`faqs.0.answer`); the first one without a known field goes to `form`. */
export const messagesByField = (body: ApiErrorBody | null, fallback: string): Record<string, string> => {
  const messages: Record<string, string> = {};
  const entries =
    body?.errors && body.errors.length > 0 ? body.errors : [{ field: body?.field ?? 'form', message: body?.message ?? fallback }];
  for (const entry of entries) {
    if (!(entry.field in messages)) messages[entry.field] = entry.message;
  }
  return messages;
};

/** The sponsor entry form as the server reads it: every text as typed, and the logo only when one was chosen. */
export const manualSponsorFormData = (draft: ManualSponsorDraft, file: File | null | undefined): FormData => {
  const body = new FormData();
  body.append('course', draft.course);
  body.append('name', draft.name);
  body.append('link', draft.link);
  body.append('amount', draft.amount);
  body.append('latestDate', draft.latestDate);
  if (file) body.append('file', file);
  return body;
};
