// @ts-check
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');

/** Where `npm run dev` forwards API calls: the app server of `make run`. */
const API_PROXY_TARGET = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:8080';

/**
 * @param {unknown} _env
 * @param {{ mode?: 'production' | 'development' | 'none' }} argv
 * @returns {import('webpack').Configuration & { devServer?: import('webpack-dev-server').Configuration }}
 */
module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  const browser = browserConfig(production);
  // The production build also makes the server renderer of the first screen (docs/architecture.md, "First paint").
  return production ? [browser, serverConfig(browser)] : browser;
};

/**
 * Turns the application's script tags into `<link rel="app-script" data-app-script>`, which browsers do not
 * fetch: `src/boot.ts` asks for them after the first paint. Only boot's own tag stays a script.
 */
class DeferAppScriptsPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.compilation.tap('DeferAppScripts', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('DeferAppScripts', (groups) => {
        const deferred = (/** @type {import('html-webpack-plugin').HtmlTagObject} */ tag) => {
          const src = String(tag.attributes.src ?? '');
          if (tag.tagName !== 'script' || /(^|\/)boot\./.test(src)) return tag;
          return { ...tag, tagName: 'link', voidTag: true, attributes: { rel: 'app-script', href: src, 'data-app-script': true } };
        };
        groups.headTags = groups.headTags.map(deferred);
        groups.bodyTags = groups.bodyTags.map(deferred);
        return groups;
      });
    });
  }
}

/**
 * @param {boolean} production
 * @returns {import('webpack').Configuration & { devServer?: import('webpack-dev-server').Configuration }}
 */
function browserConfig(production) {
  return {
    mode: production ? 'production' : 'development',
    // `boot` runs first, alone, and starts `main` once the page has painted (src/boot.ts); main's webpack
    // runtime is a file of its own, so a change elsewhere in the build does not rewrite vendor or main.
    entry: { boot: './src/boot.ts', main: { import: './src/main.tsx', runtime: 'runtime' } },
    output: {
      path: path.resolve(__dirname, 'dist'),
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:8].chunk.js' : 'assets/[name].chunk.js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: {
        '@': path.resolve(__dirname, 'src'),
        // react-router 7 exports only its development build; use its production build in production.
        ...(production && {
          'react-router$': path.resolve(__dirname, 'node_modules/react-router/dist/production/index.mjs'),
          'react-router/dom$': path.resolve(__dirname, 'node_modules/react-router/dist/production/dom-export.mjs'),
        }),
      },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                target: 'es2020',
                transform: { react: { runtime: 'automatic', development: !production } },
              },
            },
          },
        },
        // Only in production, where the aliases above point at react-router's production build.
        ...(production
          ? [
              {
                test: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/]chunk-[^\\/]+\.mjs$/,
                use: path.resolve(__dirname, 'scripts/react-router-pure-loader.js'),
              },
            ]
          : []),
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.(svg|png|jpe?g|gif|webp)$/, type: 'asset' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: './public/index.html', favicon: './public/favicon.svg' }),
      new DeferAppScriptsPlugin(),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:8].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:8].chunk.css' : 'assets/[name].chunk.css',
      }),
    ],
    optimization: {
      splitChunks: {
        chunks: 'all',
        cacheGroups: {
          // React, router and Redux change rarely: one long-cached vendor file (react-dom ~207 KB, RTK ~58 KB,
          // react-router ~30 KB, immer ~13 KB of its ~330 KB). `cookie` and `set-cookie-parser` are
          // react-router's, for server code the site does not use; listed so they would land here too.
          vendor: {
            test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@reduxjs|redux|react-redux|immer|reselect|use-sync-external-store|cookie|set-cookie-parser)[\\/]/,
            name: 'vendor',
            chunks: 'initial',
            priority: 20,
          },
        },
      },
    },
    // Budget for the initial download, uncompressed (~440 KB today): react-dom, react-router's declarative
    // router and RTK Query (vendor, ~103 KiB gzipped) plus the home and project pages. `npm run size` prints
    // the compressed figures; the home page's scripts are to stay within 130,000 bytes gzipped
    // (docs/decisions.md, "Initial JavaScript within 130 KB").
    performance: { hints: production ? 'warning' : false, maxAssetSize: 420_000, maxEntrypointSize: 450_000 },
    stats: 'errors-warnings',
    devServer: {
      port: 3000,
      host: '127.0.0.1',
      historyApiFallback: true,
      hot: true,
      proxy: [{ context: ['/v1'], target: API_PROXY_TARGET, changeOrigin: true }],
    },
  };
}

/**
 * `dist-server/render.js`: the same application for Node, one self-contained file that app-server runs to
 * render `/` and `/projects/{slug}/` (`src/server/render.tsx`). Styles and images are the browser build's:
 * here CSS is skipped and image imports give the same URLs without writing files.
 * @param {import('webpack').Configuration} browser
 * @returns {import('webpack').Configuration}
 */
function serverConfig(browser) {
  const webpack = require('webpack');
  return {
    name: 'server',
    mode: 'production',
    target: 'node20',
    entry: { render: './src/server/render.tsx' },
    output: { path: path.resolve(__dirname, 'dist-server'), filename: '[name].js', publicPath: '/', clean: true },
    devtool: false,
    resolve: browser.resolve,
    module: {
      // Web workers (the phrases worker) only start in a browser: their `new Worker(new URL(...))` stays as
      // written, never bundled into a chunk of its own that the one-file server build could not hold.
      parser: { javascript: { worker: false, url: false } },
      rules: [
        // @ts-ignore the browser's rules are defined above
        browser.module.rules[0],
        { test: /\.css$/, type: 'asset/source' },
        {
          test: /\.(svg|png|jpe?g|gif|webp)$/,
          type: 'asset',
          generator: { filename: 'assets/[name].[contenthash:8][ext]', emit: false },
        },
      ],
    },
    // One file: the lazily loaded pages are never rendered here, but their imports must resolve.
    plugins: [new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
    optimization: { minimize: false },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}
