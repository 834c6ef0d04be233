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
  return {
    mode: production ? 'production' : 'development',
    entry: { main: './src/main.tsx' },
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
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:8].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:8].chunk.css' : 'assets/[name].chunk.css',
      }),
    ],
    optimization: {
      runtimeChunk: 'single',
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
};
