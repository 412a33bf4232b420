export * from './lightbox.js';
export * from './countries.js';
export * from './errorText.js';
export * from './messageLinks.js';
