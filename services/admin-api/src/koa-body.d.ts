// Brings @koa/bodyparser's `ctx.request.body` typing into this package's build.
import '@koa/bodyparser';
