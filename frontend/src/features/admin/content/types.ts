/*
 * The project content endpoints' bodies (`/v1/admin/projects/{id}/content` and `/images`), named from the server's
 * OpenAPI document, and the client's own arguments of the mutations.
 */
import type { Schemas } from '@/lib/apiTypes';

/** `GET /v1/admin/projects/{id}/content`, and the answer of every change to it. */
export type ProjectContent = Schemas['ProjectContentDto'];
export type ContentSlide = Schemas['AdminSliderImageDto'];
export type ContentOwner = Schemas['AdminOwnerDto'];
export type ContentLimits = Schemas['ContentLimitsDto'];
/** `POST /v1/admin/projects/{id}/content`. */
export type ContentInput = Schemas['ContentInput'];
/** Where an image goes: main, slider, honor, owner or return. */
export type ImageSlot = Schemas['AdminImageSlotDto'];

export interface SaveContentArgs {
  projectId: number;
  input: ContentInput;
}

export interface UploadImageArgs {
  projectId: number;
  slot: ImageSlot;
  file: File;
  /** Slider only. */
  alt?: string;
  /** For `return`. */
  returnId?: number;
}

export interface RemoveImageArgs {
  projectId: number;
  slot: Exclude<ImageSlot, 'slider'>;
  returnId?: number;
}

/** `GET`/`POST /v1/admin/projects/{id}/settings`. */
export type ProjectSettings = Schemas['ProjectSettingsDto'];
export type ProjectSettingsInput = Schemas['ProjectSettingsInput'];

export interface SaveSettingsArgs {
  projectId: number;
  input: ProjectSettingsInput;
}

/** `GET /v1/admin/projects/{id}/manual-sponsors`, and the answer of every change to the list. */
export type ManualSponsors = Schemas['ManualSponsorsDto'];
export type ManualSponsor = Schemas['ManualSponsorDto'];
export type ManualCourse = Schemas['ManualCourseDto'];

/** The entry form as typed: every text as the operator wrote it (the server trims and checks). */
export interface ManualSponsorDraft {
  course: ManualCourse;
  name: string;
  link: string;
  amount: string;
  latestDate: string;
}

export interface SaveManualSponsorArgs {
  projectId: number;
  /** Absent: a new entry. */
  sponsorId?: number;
  draft: ManualSponsorDraft;
  /** Courses A, B and C: the logo (required for a new entry; an edit without one keeps the stored logo). */
  file?: File | null;
}

export interface ManualSponsorArgs {
  projectId: number;
  sponsorId: number;
}

export interface MoveManualSponsorArgs extends ManualSponsorArgs {
  direction: Schemas['MoveDirectionDto'];
}
