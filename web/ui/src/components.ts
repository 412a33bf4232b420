export * from './Alert.js';
export * from './Modal.js';
export * from './Page.js';
export * from './TrackingLinks.js';
export * from './UnavailableNotice.js';
