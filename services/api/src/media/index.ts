/** What other features use of media: who owns an upload, its storage and the keys of uploads with the same content. */
export { assertOwnAttachments, assertOwnPhotos } from './attachmentLinks.js';
export { mediaKeyOf } from './mediaKeys.js';
export { uploadsWithSameContent } from './mediaUploads.js';
export { DiskMediaStorage, mediaDirOf } from './mediaStorage.js';
