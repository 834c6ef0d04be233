/**
 * Hands `blob` to the browser as a file download named `fileName`. For answers that need the session's bearer token
 * (a plain link would not carry it): fetch them with the API, then save what came back.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after `click()` returns: release it a while later.
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
