/** The web shape's WebSocket frames: one definition for both ends, in src/shared/web-wire.ts. */
export { ClientFrameSchema, ServerFrameSchema, type ServerFrame } from '../../shared/web-wire';
