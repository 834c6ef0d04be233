/*
 * The admin project endpoints' bodies (`/v1/admin/projects...`, and `/v1/admin/comments/...` for the moderation of
 * their comments; /work/admin-projects-contract.md), named from the server's OpenAPI document like every other API
 * type: a server change that breaks these screens fails the typecheck. Below them, the client's own types (the
 * arguments of the mutations), which live outside `api/` (scripts/api-shapes.mjs refuses hand-written shapes there).
 */
import type { Schemas } from '@/lib/apiTypes';

export type ProjectState = Schemas['ProjectStateDto'];
export type FundingModel = Schemas['FundingModelDto'];
/** 税込 / 税別（税を加算）/ 寄附（非課税）. */
export type TaxHandling = Schemas['TaxHandlingDto'];
/** A return's type as the form offers it: 0 individual, 1 company, 2 organisation (the API's `returnType`). */
export type ReturnTypeCode = 0 | 1 | 2;

/** One line of `GET /v1/admin/projects` (`attention`: Japanese phrases such as 'リターンがありません'). */
export type AdminProjectSummary = Schemas['AdminProjectSummaryDto'];
/** `GET /v1/admin/projects`. */
export type AdminProjectList = Schemas['AdminProjectListResponse'];
/** A return as the operator edits it (`backed`: price and type locked, cannot be deleted). */
export type AdminReturn = Schemas['AdminReturnDto'];
/** Which terms are locked (true once published). */
export type LockedFields = Schemas['LockedDto'];
/** `GET /v1/admin/projects/{id}`, and the answer of every change to a project or its returns. */
export type AdminProject = Schemas['AdminProjectDto'];
/** The body of create and update (every field is sent). */
export type ProjectInput = Schemas['ProjectInput'];
export type ReturnInput = Schemas['ReturnInput'];
/** `GET /v1/project/get/areas`: the municipalities and the categories, each in the operators' order. */
export type Taxonomy = Schemas['TaxonomyResponse'];
/** `POST /v1/admin/projects/{id}/publish`: null publishes now, a future instant schedules. */
export type PublishInput = Schemas['PublishInput'];
/** `POST /v1/admin/projects/{id}/return-order`. */
export type ReturnOrderInput = Schemas['ReturnOrderInput'];
/** A supporter comment as the operator sees it, shown or hidden (`authorEmail` for the operator only). */
export type AdminComment = Schemas['AdminCommentDto'];
/** `GET /v1/admin/projects/{id}/comments` (newest first). */
export type AdminCommentList = Schemas['AdminCommentsResponse'];
/** `POST /v1/admin/comments/{id}/hide` (terms of use 第18条): the reason is required, one line of 1-200 characters. */
export type HideCommentInput = Schemas['HideCommentInput'];
/** `GET`/`PUT /v1/admin/projects/{id}/receipt-issuer`: who issues the project's receipts (null fields: none set). */
export type ReceiptIssuerSettings = Schemas['ReceiptIssuerSettingsDto'];
/** The issuer's name (required) and registration number (empty or null: not registered). */
export type ReceiptIssuerInput = Schemas['ReceiptIssuerInput'];

// The arguments of the mutations (the client's own: which project, which return, what to send).

export interface SetReceiptIssuerArgs {
  projectId: number;
  input: ReceiptIssuerInput;
}

export interface UpdateProjectArgs {
  id: number;
  input: ProjectInput;
}

export interface PublishProjectArgs {
  id: number;
  input: PublishInput;
}

export interface AddReturnArgs {
  projectId: number;
  input: ReturnInput;
}

export interface UpdateReturnArgs {
  projectId: number;
  returnId: number;
  input: ReturnInput;
}

export interface DeleteReturnArgs {
  projectId: number;
  returnId: number;
}

export interface ReorderReturnsArgs {
  projectId: number;
  input: ReturnOrderInput;
}

/** Which comment to hide, and the project whose list shows it (the list the answer updates). */
export interface HideCommentArgs {
  id: number;
  projectId: number;
  input: HideCommentInput;
}

/** A supporter of a project as the operator moderates their public name. */
export type AdminSupporter = Schemas['AdminSupporterDto'];
export type AdminSupporterList = Schemas['AdminSupportersResponse'];

/** Whose name to hide on which project, and why. */
export interface HideSupporterNameArgs {
  projectId: number;
  userId: number;
  input: HideCommentInput;
}

/** Whose name to show again on which project. */
export interface ShowSupporterNameArgs {
  projectId: number;
  userId: number;
}

/** Which comment to show again, and the project whose list shows it. */
export interface ShowCommentArgs {
  id: number;
  projectId: number;
}
